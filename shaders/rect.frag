// rect.frag - outline (within half the thickness of the edge) or fill.
#version 330 core

in vec2 v_px;
flat in vec4 v_rect_px;
flat in vec4 v_color;
flat in vec2 v_style;
out vec4 frag;

void main() {
  vec2 d = min(v_px - v_rect_px.xy, v_rect_px.zw - v_px);  // >0 inside
  float edge = min(d.x, d.y);
  bool inside = edge >= 0.0;
  bool on_outline = abs(edge) <= v_style.x * 0.5;
  if (v_style.y > 0.5) {
    if (!inside && !on_outline) discard;
  } else if (!on_outline) {
    discard;
  }
  frag = v_color;
}
