// input.h — the app's keys, the same in every mode:
//   Left / Right      previous / next step
//   PageUp / PageDown previous / next k-iteration
//   Home / End        first step / the store of C
//   Space             play / pause
//   B                 'all blocks' mode
//   V                 colour cells by value / by replay state
//   F                 fit the matrices to the view
//   F11 (Esc leaves)  presentation mode
//   F12               export a PNG of the window
//   Ctrl + / Ctrl -   larger / smaller text (Ctrl 0: normal)
#pragma once

namespace ts::ui {

class AppState;

struct KeyHelp {
  const char* keys;
  const char* action;
};
inline constexpr KeyHelp kKeyHelp[] = {
    {"Left / Right", "previous / next step"},
    {"PageUp / PageDown", "previous / next k-iteration"},
    {"Home / End", "first step / store of C"},
    {"Space", "play / pause"},
    {"B", "all blocks: the tiles every block loads"},
    {"V", "colour by value / by replay state"},
    {"F", "fit the matrices to the view"},
    {"F11, Esc", "presentation mode on / off"},
    {"F12", "export a PNG of the window"},
    {"Ctrl + / Ctrl -", "larger / smaller text (Ctrl 0: normal)"},
    {"Click a cell of C", "select it; wheel zooms, drag pans"},
};

// Reads this frame's key presses (unless a text field has the keyboard).
void handle_keys(AppState& app);

}  // namespace ts::ui
