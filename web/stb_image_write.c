// stb_image_write.c — the PNG writer's implementation for the browser build
// (the desktop links Debian's libstb, which holds it).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
