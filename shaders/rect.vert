// rect.vert - one instance per highlight rectangle (a block, a tile, a cell):
// outlines or fills drawn over the grids, in cell coordinates.
#version 330 core

uniform vec2 u_viewport;  // canvas size in pixels
uniform vec2 u_origin;    // pixel position of world (0, 0)
uniform float u_scale;    // pixels per cell

layout(location = 0) in vec4 i_rect;       // x0, y0, x1, y1 in cells (world)
layout(location = 1) in vec4 i_color;      // RGBA
layout(location = 2) in vec2 i_style;      // outline thickness in pixels, fill (0 or 1)

out vec2 v_px;               // pixel position
flat out vec4 v_rect_px;     // the rectangle in pixels
flat out vec4 v_color;
flat out vec2 v_style;

void main() {
  vec2 lo = u_origin + i_rect.xy * u_scale;
  vec2 hi = u_origin + i_rect.zw * u_scale;
  float grow = i_style.x * 0.5;  // the outline straddles the edge
  vec2 corner = vec2(gl_VertexID & 1, gl_VertexID >> 1);
  v_px = mix(lo - grow, hi + grow, corner);
  v_rect_px = vec4(lo, hi);
  v_color = i_color;
  v_style = i_style;
  gl_Position = vec4(v_px.x / u_viewport.x * 2.0 - 1.0, 1.0 - v_px.y / u_viewport.y * 2.0, 0.0, 1.0);
}
