// ui_test_support.h — recordings and an AppState holding one, for the app's
// logic tests (no window).
#pragma once

#include "app/ui/app_state.h"
#include "tests/ui/loader_test_support.h"
