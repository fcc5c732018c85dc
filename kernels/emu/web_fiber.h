// web_fiber.h — the emulator's fibers in the browser (emscripten, -sASYNCIFY):
// the part of Boost.Context's ctx::fiber that emulator.cpp uses, over
// emscripten_fiber_t. Boost.Context has no WebAssembly port; with Asyncify a
// switch unwinds the wasm call stack of the context left into its own buffer
// and rewinds the one resumed (about 4 us a switch in Chromium, against 24 ns
// native), so the emulator's scheduler runs unchanged.
//
// Semantics kept from ctx::fiber: `std::move(f).resume()` runs f until it
// resumes the context that resumed it (then returns a handle to f's
// continuation) or until its function returns (then returns an empty fiber);
// the function gets the resumer as a fiber and returns the fiber to switch to
// at its end. Not kept: forced unwinding of a fiber destroyed while
// suspended (the emulator never does that: it abandons threads itself).
#pragma once

#if !defined(__EMSCRIPTEN__)
#error "web_fiber.h is the browser build's; the desktop uses Boost.Context"
#endif

#include <emscripten/fiber.h>

#include <cstddef>
#include <cstdlib>
#include <functional>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace ts::emu::web_fiber {

struct stack_context {
  std::size_t size = 0;
  void* sp = nullptr;  // the top: stacks grow down
};

namespace detail {
struct forced_unwind {};  // never thrown here (see above); named so the emulator's catch compiles
}  // namespace detail

class fiber;

namespace impl {

// The Asyncify buffer a context's unwound frames go to. A thread of a kernel
// at a barrier is a few frames deep (entry, kernel, barrier, switch); the
// scheduler's context holds the whole app's stack (main loop, panel, recorder).
constexpr std::size_t kFiberAsyncifyBytes = 32 * 1024;
constexpr std::size_t kMainAsyncifyBytes = 1024 * 1024;

struct Context {
  emscripten_fiber_t f{};
  std::unique_ptr<char[]> asyncify;
  stack_context stack;
  std::function<void(stack_context&)> deallocate;  // gives the C stack back
  std::function<fiber(fiber&&)> body;
  Context* resumer = nullptr;  // who switched to this context last (null: it had just finished)
  bool started = false, finished = false, is_main = false;
};

inline Context*& current() {
  static Context* c = nullptr;  // the browser build has one thread
  return c;
}

inline Context* main_context() {
  static Context* m = [] {
    auto* c = new Context;
    c->is_main = c->started = true;
    c->asyncify.reset(new char[kMainAsyncifyBytes]);
    emscripten_fiber_init_from_current_context(&c->f, c->asyncify.get(), kMainAsyncifyBytes);
    return c;
  }();
  return m;
}

inline std::vector<Context*>& free_contexts() {  // finished contexts, their Asyncify buffers reused
  static std::vector<Context*> pool;
  return pool;
}

inline void recycle(Context* c) {
  if (c->deallocate) c->deallocate(c->stack);
  c->deallocate = nullptr;
  c->body = nullptr;
  c->resumer = nullptr;
  c->started = c->finished = false;
  free_contexts().push_back(c);
}

inline void entry(void* arg);

}  // namespace impl

class fiber {
 public:
  fiber() noexcept = default;
  template <class StackAllocator, class Fn>
  fiber(std::allocator_arg_t, StackAllocator alloc, Fn&& fn) {
    impl::main_context();  // the scheduler's context exists before its first switch
    auto& pool = impl::free_contexts();
    impl::Context* c = nullptr;
    if (!pool.empty()) {
      c = pool.back();
      pool.pop_back();
    } else {
      c = new impl::Context;
      c->asyncify.reset(new char[impl::kFiberAsyncifyBytes]);
    }
    c->stack = alloc.allocate();
    c->deallocate = [alloc](stack_context& sc) mutable { alloc.deallocate(sc); };
    c->body = std::forward<Fn>(fn);
    emscripten_fiber_init(&c->f, &impl::entry, c, static_cast<char*>(c->stack.sp) - c->stack.size, c->stack.size,
                          c->asyncify.get(), impl::kFiberAsyncifyBytes);
    c_ = c;
  }
  fiber(fiber&& other) noexcept : c_(std::exchange(other.c_, nullptr)) {}
  fiber& operator=(fiber&& other) noexcept {
    if (this != &other) {
      drop();
      c_ = std::exchange(other.c_, nullptr);
    }
    return *this;
  }
  fiber(const fiber&) = delete;
  fiber& operator=(const fiber&) = delete;
  ~fiber() { drop(); }

  explicit operator bool() const noexcept { return c_ != nullptr; }

  fiber resume() && {
    impl::Context* to = std::exchange(c_, nullptr);
    impl::Context* from = impl::current() ? impl::current() : impl::main_context();
    to->resumer = from;
    to->started = true;
    impl::current() = to->is_main ? nullptr : to;
    emscripten_fiber_swap(&from->f, &to->f);
    // Back here: whoever switched to `from` set its resumer (and current()).
    impl::Context* back = std::exchange(from->resumer, nullptr);
    if (back && back->finished) {  // its function returned: off its stack now, so free it
      impl::recycle(back);
      back = nullptr;
    }
    return fiber(back);
  }

 private:
  friend void impl::entry(void*);
  explicit fiber(impl::Context* c) noexcept : c_(c) {}
  impl::Context* release() noexcept { return std::exchange(c_, nullptr); }
  // A handle dropped: a fiber that never ran gives its stacks back; a
  // suspended one is left as it is (the emulator finishes every thread first).
  void drop() noexcept {
    if (c_ && !c_->started && !c_->is_main) impl::recycle(c_);
    c_ = nullptr;
  }

  impl::Context* c_ = nullptr;
};

namespace impl {

inline void entry(void* arg) {
  auto* self = static_cast<Context*>(arg);
  fiber next = self->body(fiber(std::exchange(self->resumer, nullptr)));
  self->finished = true;
  Context* to = next.release();
  to->resumer = self;
  current() = to->is_main ? nullptr : to;
  emscripten_fiber_swap(&self->f, &to->f);  // never resumed: the context it went to frees this one
  std::abort();
}

}  // namespace impl
}  // namespace ts::emu::web_fiber
