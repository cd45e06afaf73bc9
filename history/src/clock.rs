//! The one clock of a history: `CLOCK_MONOTONIC`, in nanoseconds. Every
//! process of the machine reads the same clock (it counts from boot and
//! never jumps), so times from different client processes compare.

/// `CLOCK_MONOTONIC` now, in nanoseconds.
pub fn now_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    // tv_sec and tv_nsec are never negative for CLOCK_MONOTONIC.
    (t.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(t.tv_nsec as u64)
}

#[cfg(test)]
mod tests {
    #[test]
    fn monotonic_and_shared_with_std() {
        let a = super::now_ns();
        let i = std::time::Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let b = super::now_ns();
        assert!(b >= a + 2_000_000, "{a} {b}");
        assert!(b - a >= i.elapsed().as_nanos() as u64 / 2);
    }
}
