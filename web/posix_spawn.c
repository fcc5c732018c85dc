// posix_spawn.c — a page starts no processes. emscripten's libc declares
// posix_spawnp but has no definition; here it fails with ENOSYS, as fork()
// does in emscripten, and the one caller (kernels/user/cpu_compiler.cpp:
// compiling a user kernel's file, which the page does not offer) reports it.
#include <errno.h>
#include <spawn.h>

int posix_spawnp(pid_t* restrict pid, const char* restrict file, const posix_spawn_file_actions_t* actions,
                 const posix_spawnattr_t* restrict attr, char* const argv[restrict], char* const envp[restrict]) {
  (void)pid, (void)file, (void)actions, (void)attr, (void)argv, (void)envp;
  return ENOSYS;
}
