//! The global allocator of the binary, the benches and the speed baseline: mimalloc, asked
//! the way the system allocator is asked, with a per-file arena in front of it.
//!
//! sgf-parse allocates a node, a property list and a string per property, and the analysis
//! a few scratch arrays per position; with the system allocator a third of a run went to
//! malloc and free. The `mimalloc` crate's own wrapper sends every request through
//! mimalloc's aligned entry points, whose slow path over-allocates any block above 1 KiB
//! that is not a power of two (a 19×19 board's `u32` array is 1,764 bytes). Plain
//! `mi_malloc` already aligns to 16 bytes, so this wrapper uses it whenever that is enough,
//! as Rust's own `System` allocator does with `malloc`.
//!
//! **The per-file arena.** One professional game costs about 2,800 allocations, nearly all
//! freed before its file is done. [`scoped`] runs the work for one file with the thread's
//! arena on: blocks are cut from the thread's chunk by moving a pointer, freeing one does
//! nothing, and when the work is done its result is copied out to mimalloc and the chunk
//! starts over. A block is never cut twice while it
//! may be in use: the chunk starts over only when every block cut from it was freed on its
//! own thread; a block kept past its file, or freed by another thread, makes the thread give
//! up its arena for good (it then allocates from mimalloc alone). A file that needs more
//! than a chunk takes the rest from mimalloc. mimalloc's own heaps (`mi_heap_new` per file,
//! destroyed after it) were measured against the arena and were slower; the figures of both
//! are in docs/performance.md.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use libmimalloc_sys as mi;

/// The alignment every `mi_malloc` block has (mimalloc's `MI_MAX_ALIGN_SIZE`) when it is at
/// least that large; smaller blocks are aligned to their size's power of two.
const MIN_ALIGN: usize = 16;

/// One thread's arena: twice what the largest professional game file needs (0.9 MiB).
const CHUNK: usize = 2 << 20;
/// How many threads can hold an arena at once; the others allocate from mimalloc alone.
const SLOTS: usize = 64;
const REGION_SIZE: usize = CHUNK * SLOTS;

/// Where all chunks lie, one reserved block, so that any thread tells an arena block from a
/// mimalloc one by its address alone: 0 before the first scope, `NO_REGION` if it could not
/// be had. Reserved, not touched: only the pages the arenas use become resident.
static REGION: AtomicUsize = AtomicUsize::new(0);
const NO_REGION: usize = 1;
/// Which chunks a thread holds, one bit each.
static HELD: AtomicU64 = AtomicU64::new(0);
/// How many threads gave up their arena.
static GIVEN_UP: AtomicUsize = AtomicUsize::new(0);

/// Where a thread without a chunk has it: at the top of the address space, where no user
/// block lies, so that `owns` needs no other test.
const NO_CHUNK: usize = usize::MAX - CHUNK + 1;

/// A thread's arena, or its absence.
struct Arena {
    /// Where its chunk starts; `NO_CHUNK` without one.
    start: Cell<usize>,
    /// Whether the thread asked for a chunk already (and has one unless `start` says not).
    claimed: Cell<bool>,
    /// Where the next block is cut.
    next: Cell<usize>,
    /// Where the chunk ends while a scope runs, 0 otherwise: the one test `cut` makes.
    limit: Cell<usize>,
    /// Blocks cut from the chunk and not yet freed on this thread.
    live: Cell<usize>,
    /// Bytes the last scope cut.
    last_used: Cell<usize>,
}

thread_local! {
    // Without a destructor, so the allocator may use it at any time, thread exit included.
    static ARENA: Arena = const {
        Arena {
            start: Cell::new(NO_CHUNK),
            claimed: Cell::new(false),
            next: Cell::new(0),
            limit: Cell::new(0),
            live: Cell::new(0),
            last_used: Cell::new(0),
        }
    };
    // Hands the thread's chunk back when the thread ends.
    static HANDBACK: Handback = const { Handback };
}

struct Handback;

impl Drop for Handback {
    fn drop(&mut self) {
        ARENA.with(|a| {
            let start = a.start.get();
            if start != NO_CHUNK {
                a.start.set(NO_CHUNK);
                if a.live.get() == 0 {
                    let slot = (start - REGION.load(Ordering::Acquire)) / CHUNK;
                    HELD.fetch_and(!(1 << slot), Ordering::AcqRel);
                }
            }
        });
    }
}

impl Arena {
    /// Takes a free chunk on the thread's first scope; whether the thread has one.
    fn claim(&self) -> bool {
        if self.claimed.get() {
            return self.start.get() != NO_CHUNK;
        }
        self.claimed.set(true);
        // Without the hand-back (a thread already ending) the chunk would never return.
        if HANDBACK.try_with(|_| ()).is_err() {
            return false;
        }
        let Some(base) = region() else {
            return false;
        };
        let mut held = HELD.load(Ordering::Acquire);
        loop {
            let slot = held.trailing_ones() as usize;
            if slot >= SLOTS {
                return false;
            }
            match HELD.compare_exchange(held, held | 1 << slot, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => {
                    self.start.set(base + slot * CHUNK);
                    self.next.set(base + slot * CHUNK);
                    return true;
                }
                Err(now) => held = now,
            }
        }
    }

    /// A block cut from the chunk, if a scope runs and it fits.
    #[inline]
    fn cut(&self, layout: Layout) -> Option<*mut u8> {
        let end = self.limit.get();
        let at = (self.next.get() + layout.align() - 1) & !(layout.align() - 1);
        if at > end || layout.size() > end - at {
            return None;
        }
        self.next.set(at + layout.size());
        self.live.set(self.live.get() + 1);
        Some(at as *mut u8)
    }

    /// Whether `p` lies in this thread's chunk.
    #[inline]
    fn owns(&self, p: usize) -> bool {
        p.wrapping_sub(self.start.get()) < CHUNK
    }

    /// Grows or shrinks an arena block where it stands, if it can: shrinking always, growing
    /// the last block cut from this thread's chunk while a scope runs and the chunk has room
    /// (the limit is 0 otherwise).
    #[inline]
    fn resize_in_place(&self, p: usize, old: usize, new: usize) -> bool {
        if new <= old {
            return true;
        }
        let end = self.limit.get();
        if self.owns(p) && p + old == self.next.get() && new <= end.saturating_sub(p) {
            self.next.set(p + new);
            return true;
        }
        false
    }

    /// Ends a scope: the chunk starts over if every block cut from it was freed here, else
    /// the thread gives it up.
    fn start_over(&self) {
        self.limit.set(0);
        self.last_used.set(self.next.get() - self.start.get());
        if self.live.get() == 0 {
            self.next.set(self.start.get());
        } else {
            self.give_up();
        }
    }

    fn give_up(&self) {
        self.limit.set(0);
        self.start.set(NO_CHUNK);
        GIVEN_UP.fetch_add(1, Ordering::Relaxed);
    }
}

/// The reserved block all chunks lie in, reserved on first use.
fn region() -> Option<usize> {
    let base = match REGION.load(Ordering::Acquire) {
        0 => {
            // SAFETY: a plain allocation; the block is never freed while the process runs.
            let p = unsafe { mi::mi_malloc_aligned(REGION_SIZE, CHUNK) } as usize;
            let p = if p == 0 { NO_REGION } else { p };
            match REGION.compare_exchange(0, p, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => p,
                Err(other) => {
                    if p != NO_REGION {
                        // SAFETY: allocated just above and never handed out.
                        unsafe { mi::mi_free(p as *mut c_void) };
                    }
                    other
                }
            }
        }
        p => p,
    };
    (base != NO_REGION).then_some(base)
}

/// Whether `p` is an arena block (of any thread).
#[inline]
fn in_region(p: *mut u8) -> bool {
    let base = REGION.load(Ordering::Relaxed);
    base > NO_REGION && (p as usize).wrapping_sub(base) < REGION_SIZE
}

/// Runs the work for one file with this thread's arena on, and returns its result copied
/// out of the arena (`T::clone` must copy, not share, what the result owns). Without an
/// arena, or inside another scope, it only runs the work. The work should not unwind: if it
/// does, the thread gives up its arena.
pub fn scoped<T: Clone>(work: impl FnOnce() -> T) -> T {
    ARENA.with(|a| {
        if a.limit.get() != 0 || !a.claim() {
            return work();
        }
        a.limit.set(a.start.get() + CHUNK);
        let unwinding = GiveUpOnUnwind(a);
        let inside = work();
        a.limit.set(0);
        let out = inside.clone();
        drop(inside);
        std::mem::forget(unwinding);
        a.start_over();
        out
    })
}

struct GiveUpOnUnwind<'a>(&'a Arena);

impl Drop for GiveUpOnUnwind<'_> {
    fn drop(&mut self) {
        self.0.give_up();
    }
}

/// The arena's state, for tests and figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaStats {
    /// Whether this thread holds a chunk.
    pub held: bool,
    /// Bytes the thread's last scope cut.
    pub last_used: usize,
    /// Threads of the process that gave up their arena.
    pub given_up: usize,
}

/// The arena's state as this thread sees it.
pub fn arena_stats() -> ArenaStats {
    ARENA.with(|a| ArenaStats {
        held: a.start.get() != NO_CHUNK,
        last_used: a.last_used.get(),
        given_up: GIVEN_UP.load(Ordering::Relaxed),
    })
}

/// mimalloc v3's `mi_option_purge_delay` (its place in `mi_option_t`, which this crate's
/// bindings do not name).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// Sets mimalloc up for a run; call first thing. mimalloc v3 keeps freed memory for a second
/// before it returns it to the system, so a list that grows by doubling (a walk's million
/// names) holds every size it passed through at once; 10 ms (v2's delay) returns them as
/// the list grows, at no measured cost in speed.
pub fn configure() {
    // SAFETY: sets an option; mimalloc reads options at any time.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 10) };
}

/// mimalloc as the global allocator, with the per-file arena in front:
/// `#[global_allocator] static A: Mimalloc = Mimalloc;`.
pub struct Mimalloc;

/// Whether plain `mi_malloc` gives the alignment `layout` asks for.
#[inline]
fn plain(align: usize, size: usize) -> bool {
    align <= MIN_ALIGN && align <= size
}

// SAFETY: arena blocks are cut at the layout's alignment from a chunk no other thread cuts
// from, and a chunk starts over only when none of its blocks is in use (see `start_over`);
// they are told from mimalloc blocks by address and never passed to mimalloc. Every other
// request forwards to the mimalloc function with the same contract, using the unaligned
// entry point only where its guaranteed alignment meets the layout's.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if let Some(p) = ARENA.with(|a| a.cut(layout)) {
            return p;
        }
        if plain(layout.align(), layout.size()) {
            mi::mi_malloc(layout.size()) as *mut u8
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if let Some(p) = ARENA.with(|a| a.cut(layout)) {
            // A chunk that started over holds what its last scope left.
            p.write_bytes(0, layout.size());
            return p;
        }
        if plain(layout.align(), layout.size()) {
            mi::mi_zalloc(layout.size()) as *mut u8
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        let own = ARENA.with(|a| {
            let own = a.owns(ptr as usize);
            if own {
                a.live.set(a.live.get() - 1);
            }
            own
        });
        if !own && !in_region(ptr) {
            mi::mi_free(ptr as *mut c_void)
        }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if in_region(ptr) {
            let p = ptr as usize;
            if ARENA.with(|a| a.resize_in_place(p, layout.size(), new_size)) {
                return ptr;
            }
            let moved = Layout::from_size_align_unchecked(new_size, layout.align());
            let q = self.alloc(moved);
            if !q.is_null() {
                std::ptr::copy_nonoverlapping(ptr, q, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            return q;
        }
        if plain(layout.align(), new_size) {
            mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
        } else {
            mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    /// Runs `f` on a thread of its own: each thread has its own arena, so a test starts
    /// from a thread that has cut nothing and given nothing up.
    fn on_new_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::spawn(f).join().unwrap()
    }

    /// Blocks come back aligned as asked, small and large, plain and over-aligned, and keep
    /// their contents when they grow; outside a scope from mimalloc, inside one from the
    /// arena.
    #[test]
    fn blocks_are_aligned_and_keep_their_contents() {
        for arena in [false, true] {
            let check = move || {
                let a = Mimalloc;
                for (size, align) in [(1, 1), (8, 8), (24, 8), (1764, 4), (4096, 64), (100, 256)] {
                    unsafe {
                        let p = a.alloc_zeroed(layout(size, align));
                        assert!(!p.is_null());
                        assert_eq!(in_region(p), arena);
                        assert_eq!(p as usize % align, 0, "size {size} align {align}");
                        assert!(std::slice::from_raw_parts(p, size).iter().all(|&b| b == 0));
                        p.write_bytes(7, size);
                        let q = a.realloc(p, layout(size, align), size * 3);
                        assert_eq!(q as usize % align, 0);
                        assert!(std::slice::from_raw_parts(q, size).iter().all(|&b| b == 7));
                        a.dealloc(q, layout(size * 3, align));
                    }
                }
            };
            if arena {
                on_new_thread(move || scoped(check));
            } else {
                check();
            }
        }
    }

    /// A scope whose blocks were all freed leaves its chunk to the next, which cuts the
    /// same blocks again, zeroed where asked; the last block grows where it stands.
    #[test]
    fn a_scope_that_freed_its_blocks_starts_the_chunk_over() {
        on_new_thread(|| {
            let a = Mimalloc;
            let cut = || unsafe {
                let p = a.alloc_zeroed(layout(64, 8));
                assert_eq!(std::slice::from_raw_parts(p, 64), &[0; 64][..]);
                p.write_bytes(9, 64);
                let q = a.realloc(p, layout(64, 8), 4096);
                assert_eq!(q, p, "the last block grows in place");
                a.dealloc(q, layout(4096, 8));
                p as usize
            };
            let first = scoped(cut);
            assert!(in_region(first as *mut u8));
            assert_eq!(arena_stats().last_used, 4096);
            assert_eq!(scoped(cut), first);
            assert!(arena_stats().held);
        });
    }

    /// A block kept past its scope is never cut again: the thread gives up its arena,
    /// frees the block without harm, and allocates from mimalloc from then on.
    #[test]
    fn a_block_kept_past_its_scope_makes_the_thread_give_up() {
        on_new_thread(|| {
            let a = Mimalloc;
            let kept = scoped(|| unsafe { a.alloc(layout(32, 8)) as usize });
            assert!(in_region(kept as *mut u8));
            assert!(!arena_stats().held);
            unsafe {
                a.dealloc(kept as *mut u8, layout(32, 8));
                let p = scoped(|| a.alloc(layout(32, 8)) as usize) as *mut u8;
                assert!(!in_region(p));
                a.dealloc(p, layout(32, 8));
            }
        });
    }

    /// A block freed by another thread does not count as freed by its own, which gives up
    /// its arena rather than cut the block again.
    #[test]
    fn a_block_freed_by_another_thread_makes_its_thread_give_up() {
        on_new_thread(|| {
            let a = Mimalloc;
            scoped(|| {
                let p = unsafe { a.alloc(layout(48, 16)) } as usize;
                on_new_thread(move || unsafe { Mimalloc.dealloc(p as *mut u8, layout(48, 16)) });
            });
            assert!(!arena_stats().held);
        });
    }

    /// Threads hand their chunks back when they end: many more threads than chunks, one
    /// after the other, each get one.
    #[test]
    fn threads_hand_their_chunks_back() {
        for _ in 0..3 * SLOTS {
            let held = on_new_thread(|| {
                scoped(|| unsafe { Mimalloc.dealloc(Mimalloc.alloc(layout(8, 8)), layout(8, 8)) });
                arena_stats().held
            });
            assert!(held);
        }
    }
}
