// grid.vert - one quad per matrix; the fragment shader picks the cell and
// draws the lines. No vertex buffer: the four corners come from gl_VertexID,
// and the cost on a software rasterizer is per pixel, not per cell or tile.
#version 330 core

uniform vec2 u_viewport;    // canvas size in pixels
uniform vec2 u_origin;      // pixel position of the matrix's cell (0, 0) corner
uniform float u_scale;      // pixels per cell
uniform ivec2 u_cells;      // rows, cols of the matrix

out vec2 v_cell;            // position in cells: x = column, y = row

void main() {
  vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);  // triangle strip 0..3
  v_cell = corner * vec2(u_cells.y, u_cells.x);
  vec2 px = u_origin + v_cell * u_scale;
  gl_Position = vec4(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0, 0.0, 1.0);
}
