// theme.h — fonts (DejaVu from Debian's fonts-dejavu-core, ImGui's own font
// when absent) and the two themes: the normal dark one and presentation
// mode's high-contrast one with large fonts.
#pragma once

struct ImFont;

namespace ts::ui {

struct Fonts {
  ImFont* ui = nullptr;          // normal size
  ImFont* mono = nullptr;        // source listings
  ImFont* ui_large = nullptr;    // presentation mode
  ImFont* mono_large = nullptr;
  bool from_ttf = false;         // false: DejaVu was missing, ImGui's default font is used
  ImFont* body(bool presentation) const { return presentation ? ui_large : ui; }
  ImFont* code(bool presentation) const { return presentation ? mono_large : mono; }
};

// Adds the fonts to ImGui's atlas at `scale` times their normal sizes (16 px,
// 30 px in presentation mode); call before the backend builds its textures.
Fonts load_fonts(float scale = 1.0f);
void apply_theme(bool presentation);

}  // namespace ts::ui
