// panel_list.h — every panel of the app, one line each, in View-menu order.
// TS_PANEL(id) refers to app/ui/panel_<id>.cpp, which defines the panel with
// TS_DEFINE_PANEL(id, Type); app/ui/CMakeLists.txt compiles the files this
// list names. See panel.h for how to add a panel.
TS_PANEL(controls)
TS_PANEL(matrices)
TS_PANEL(replay)
TS_PANEL(inspector)
TS_PANEL(shared)
TS_PANEL(memory)
TS_PANEL(memory_reuse)
TS_PANEL(memory_compare)
TS_PANEL(memory_ncu)
TS_PANEL(source)
TS_PANEL(occupancy)
TS_PANEL(timeline)
TS_PANEL(bench)
