//! The monotonic clock of every time limit: `Instant`, from `std::time` on every target but
//! the browser's WebAssembly (`wasm32-unknown-unknown`), where `std::time::Instant::now`
//! panics and the clock is the page's `performance.now()` (through the `web-time` crate, the
//! same interface).
//!
//! The library reads the time only through this module, so a search with a time limit runs
//! the same in a terminal and in a page.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use web_time::Instant;
