//! The keys' buffer of a large batch on transparent huge pages (Linux).
//!
//! The keys are written once, into fresh memory: on 4 KiB pages each page
//! costs a fault (a twelve-field hex key is ~180 bytes, so a 250,000-row
//! batch is 11,000 faults, which measured ~40% of `encode_arrow`'s time).
//! With `MADV_HUGEPAGE` on the buffer's spare room, the kernel backs it
//! with 2 MiB pages where it can, 512 times fewer faults. Only a hint: the
//! contents are the same either way, and where the kernel has no huge
//! pages (or another system) nothing changes.

/// Below this, no hint (a few faults are cheaper than the call).
#[cfg(target_os = "linux")]
const MIN_HINT: usize = 8 << 20;

/// Reserves room for `additional` more bytes in `v` and, when that room is
/// large, asks for huge pages for it.
pub(crate) fn reserve(v: &mut Vec<u8>, additional: usize) {
    v.reserve(additional);
    #[cfg(target_os = "linux")]
    advise_huge(v);
}

/// `MADV_HUGEPAGE` on the whole 2 MiB pages of `v`'s spare capacity.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge(v: &mut Vec<u8>) {
    const HUGE: usize = 2 << 20;
    let spare = v.spare_capacity_mut();
    if spare.len() < MIN_HINT {
        return;
    }
    let start = spare.as_mut_ptr() as usize;
    let (from, to) = (
        start.next_multiple_of(HUGE),
        (start + spare.len()) / HUGE * HUGE,
    );
    if to > from {
        // SAFETY: `from..to` lies inside the vector's own allocation (its
        // spare capacity: nothing written there yet, nothing borrowed),
        // and MADV_HUGEPAGE changes only how the kernel backs those pages,
        // never their contents or the mapping; a failure (no transparent
        // huge pages) leaves everything as it was, so its result is not
        // needed.
        unsafe {
            libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
        }
    }
}
