//! Geo keys: Morton (Z-order) and Hilbert codes of (latitude, longitude),
//! and bounding boxes as a few code ranges.
//!
//! A [`Grid`] cuts the globe into `2^bits × 2^bits` cells (`bits` = 1 to 32
//! per axis) and numbers them along a space-filling curve, so that a cell
//! becomes one `u64` *code* below `4^bits`. Stored as an ascending `u64`
//! [`Component`], a code works in every format, and nearby places mostly
//! get nearby keys:
//!
//! ```
//! use lexikey::kinds::geo::{Curve, Grid};
//! use lexikey::{tuple, Component, Format};
//!
//! let grid = Grid::new(Curve::Hilbert, 16)?;
//! let code = grid.encode(37.7749, -122.4194)?; // San Francisco
//! let key = tuple::encode(Format::Hex, &[Component::asc("places"), grid.component(37.7749, -122.4194)?])?;
//! assert_eq!(code, 0x4B71_B06D);
//! assert_eq!(key, b"places#u000000004B71B06D");
//! let cell = grid.bounds(code)?;
//! assert!(cell.min_lat <= 37.7749 && 37.7749 < cell.max_lat);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Cells
//!
//! Longitude `[-180, 180]` maps to the column `x = floor((lon + 180) / 360
//! × 2^bits)` and latitude `[-90, 90]` to the row `y = floor((lat + 90) /
//! 180 × 2^bits)`, each clamped to `2^bits − 1` so that `+180` and `+90`
//! fall in the last column and row. A cell holds `[min, max)` on each axis
//! (the last one `[min, max]`). Values outside those ranges, and NaN, are
//! errors. Cells are equal-angle, not equal-area.
//!
//! # Curves
//!
//! | [`Curve`] | code of cell `(x, y)` | order |
//! |---|---|---|
//! | [`Curve::Morton`] | the bits of `x` and `y` interleaved, `x` (longitude) first: bit `2i + 1` is bit `i` of `x`, bit `2i` is bit `i` of `y` | Z-order; the same bits as a geohash of `2 × bits` bits |
//! | [`Curve::Hilbert`] | the Hilbert curve index of `(x, y)` (the classic `xy2d` of Butz / Lam–Shapiro) | consecutive codes are always edge-adjacent cells; fewer, longer ranges per box |
//!
//! On both curves every aligned `2^k × 2^k` block of cells (a quadtree
//! node) is one contiguous run of codes `[j·4^k, (j+1)·4^k)`; the range
//! decomposition relies on it.
//!
//! ```
//! use lexikey::kinds::geo::{Curve, Grid};
//! // Morton at 5 bits per axis is a 2-character geohash: "ez" = 01101 11111.
//! let g = Grid::new(Curve::Morton, 5)?;
//! assert_eq!(g.encode(42.6, -5.6)?, 0b01101_11111);
//! # Ok::<(), lexikey::kinds::geo::GeoError>(())
//! ```
//!
//! # A bounding box as key ranges ([`Grid::bbox_ranges`])
//!
//! The cells a box touches form a rectangle of cells (two when the box
//! crosses the antimeridian: `min_lon > max_lon`). Its codes are scattered
//! over many runs; a store wants a few ranges. In steps:
//!
//! 1. Turn the box into its cell rectangle(s): every point of the box lies
//!    in one of those cells, so covering them covers the box.
//! 2. Walk the quadtree level by level from the root. A node entirely
//!    inside the rectangle is kept whole; a node that misses it is
//!    dropped; a node that overlaps it partly is split into its 4 children
//!    at the next level. A cell (the last level) is never partial.
//! 3. Stop splitting at the last level, or when the next level would hold
//!    more nodes than a work budget (`max(4096, 64 × max_ranges)`, at most
//!    2^20); the partial nodes left are kept whole.
//! 4. Turn each node into its code interval `[j·4^k, (j+1)·4^k − 1]`, sort,
//!    and join intervals that touch.
//! 5. While there are more than `max_ranges` intervals, fill the smallest
//!    gaps: keep the `max_ranges − 1` widest gaps and join everything else.
//!    For a given set of intervals this adds the fewest cells.
//! 6. Report the over-coverage: the fraction of covered cells that are
//!    outside the rectangle, `(covered − box) / covered`.
//!
//! This is the quadtree form of BIGMIN/LITMAX (Tropf–Herzog): where
//! BIGMIN jumps from a code that left the box to the next code inside it,
//! step 2 enumerates the same runs from the top down, and works for the
//! Hilbert curve too.
//!
//! Measured over-coverage for San Francisco (lat 37.70 to 37.82, lon
//! −122.52 to −122.35; 347,200 cells at 20 bits per axis, about 38 m × 30 m
//! each; checked in `tests/geo.rs`, `over_coverage_examples`):
//!
//! | `max_ranges` | 1 | 4 | 8 | 16 | 64 |
//! |---|---|---|---|---|---|
//! | Hilbert, 20 bits | 81.9% | 35.4% | 23.1% | 10.0% | 1.4% |
//! | Morton, 20 bits | 76.9% | 57.6% | 34.6% | 21.0% | 4.0% |
//! | Hilbert, 16 bits (1,408 cells) | 81.2% | 33.0% | 20.4% | 7.1% | 0% (45 ranges) |
//!
//! The Hilbert curve needs fewer ranges for the same over-coverage; with
//! Morton, each code is a geohash.
//!
//! Use [`key_ranges`] to turn the intervals into [`KeyRange`]s under a
//! tuple prefix; scan them all, and filter the rows by their exact point if
//! the over-coverage matters.

use std::fmt;

use crate::format::Format;
use crate::range::{KeyRange, RangeError, RangeQuery};
use crate::value::Component;

/// The space-filling curve that numbers the cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Curve {
    /// Z-order: interleaved bits, longitude first (geohash bit order).
    Morton,
    /// The Hilbert curve.
    #[default]
    Hilbert,
}

impl Curve {
    /// The name used on the command line (`morton`, `hilbert`).
    pub const fn name(self) -> &'static str {
        match self {
            Curve::Morton => "morton",
            Curve::Hilbert => "hilbert",
        }
    }

    /// Parses a name written by [`Curve::name`].
    pub fn from_name(name: &str) -> Option<Curve> {
        [Curve::Morton, Curve::Hilbert]
            .into_iter()
            .find(|c| c.name() == name)
    }
}

impl fmt::Display for Curve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a geo operation failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GeoError {
    /// Bits per axis outside 1–32.
    #[error("precision must be 1 to 32 bits per axis, got {bits}")]
    Precision {
        /// The bits asked for.
        bits: u8,
    },
    /// A latitude outside `[-90, 90]`, or NaN.
    #[error("latitude {lat} is outside [-90, 90]")]
    Latitude {
        /// The latitude.
        lat: f64,
    },
    /// A longitude outside `[-180, 180]`, or NaN.
    #[error("longitude {lon} is outside [-180, 180]")]
    Longitude {
        /// The longitude.
        lon: f64,
    },
    /// A code `>= 4^bits`: no cell of this grid has it.
    #[error("code {code} is not a cell of a {bits}-bit grid (codes are below 4^{bits})")]
    Code {
        /// The code.
        code: u64,
        /// The grid's bits per axis.
        bits: u8,
    },
    /// A box whose south edge is north of its north edge.
    #[error("empty box: min_lat {min_lat} > max_lat {max_lat}")]
    EmptyBox {
        /// The south edge.
        min_lat: f64,
        /// The north edge.
        max_lat: f64,
    },
    /// `max_ranges` of 0.
    #[error("max_ranges must be at least 1")]
    NoRanges,
}

/// A cell of a grid: column `x` (longitude) and row `y` (latitude), each
/// below `2^bits`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Column, from longitude −180 eastwards.
    pub x: u32,
    /// Row, from latitude −90 northwards.
    pub y: u32,
}

/// The bounds of a cell in degrees: `[min, max)` on each axis (closed at
/// +90 and +180).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// South edge.
    pub min_lat: f64,
    /// West edge.
    pub min_lon: f64,
    /// North edge.
    pub max_lat: f64,
    /// East edge.
    pub max_lon: f64,
}

impl Bounds {
    /// The center `(lat, lon)`.
    pub fn center(&self) -> (f64, f64) {
        (
            (self.min_lat + self.max_lat) / 2.0,
            (self.min_lon + self.max_lon) / 2.0,
        )
    }
}

/// A cover of a bounding box by code intervals (see [`Grid::bbox_ranges`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Cover {
    /// Inclusive code intervals `(lo, hi)`, sorted, disjoint and not
    /// touching; at most `max_ranges` of them.
    pub ranges: Vec<(u64, u64)>,
    /// Cells covered by the intervals.
    pub covered_cells: u128,
    /// Cells the box touches (all covered).
    pub box_cells: u128,
    /// `(covered − box) / covered`: the fraction of covered cells outside
    /// the box, 0 for an exact cover.
    pub over_coverage: f64,
    /// The deepest quadtree level walked: below `bits` when every node was
    /// settled earlier (whole or outside) or the work budget cut the walk
    /// short, leaving some nodes covered whole.
    pub depth: u8,
}

/// Spreads the 32 bits of `v` to the even bits of a `u64`.
const fn spread(v: u32) -> u64 {
    let mut x = v as u64;
    x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF;
    x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF;
    x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | (x << 2)) & 0x3333_3333_3333_3333;
    (x | (x << 1)) & 0x5555_5555_5555_5555
}

/// Gathers the even bits of `v` (the inverse of `spread`).
const fn gather(v: u64) -> u32 {
    let mut x = v & 0x5555_5555_5555_5555;
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333;
    x = (x | (x >> 2)) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF;
    x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
    (x | (x >> 16)) as u32
}

/// The Morton (Z-order) code of `(x, y)`: bits interleaved, `x` in the
/// higher bit of each pair.
///
/// ```
/// use lexikey::kinds::geo::{morton_decode, morton_encode};
/// assert_eq!(morton_encode(0b11, 0b00), 0b1010);
/// assert_eq!(morton_encode(0b00, 0b11), 0b0101);
/// assert_eq!(morton_decode(0b1010), (0b11, 0b00));
/// assert_eq!(morton_encode(u32::MAX, u32::MAX), u64::MAX);
/// ```
pub const fn morton_encode(x: u32, y: u32) -> u64 {
    (spread(x) << 1) | spread(y)
}

/// The `(x, y)` of a Morton code.
pub const fn morton_decode(code: u64) -> (u32, u32) {
    (gather(code >> 1), gather(code))
}

/// Rotates/flips a quadrant (the `rot` of the classic algorithm).
fn hilbert_rot(n: u64, x: &mut u64, y: &mut u64, rx: u64, ry: u64) {
    if ry == 0 {
        if rx == 1 {
            *x = n - 1 - *x;
            *y = n - 1 - *y;
        }
        std::mem::swap(x, y);
    }
}

/// The Hilbert index of `(x, y)` on a `2^bits × 2^bits` grid (`xy2d`).
///
/// # Panics
/// If `bits` is 0 or above 32, or `x`/`y` is not below `2^bits`.
///
/// ```
/// use lexikey::kinds::geo::hilbert_encode;
/// // The order-1 curve: (0,0) → (0,1) → (1,1) → (1,0).
/// let codes: Vec<u64> = [(0, 0), (0, 1), (1, 1), (1, 0)].iter().map(|&(x, y)| hilbert_encode(1, x, y)).collect();
/// assert_eq!(codes, [0, 1, 2, 3]);
/// ```
pub fn hilbert_encode(bits: u8, x: u32, y: u32) -> u64 {
    assert!((1..=32).contains(&bits), "bits must be 1 to 32");
    let n = 1u64 << bits;
    let (mut x, mut y) = (u64::from(x), u64::from(y));
    assert!(x < n && y < n, "cell outside the grid");
    let mut d = 0u64;
    let mut s = n >> 1;
    while s > 0 {
        let rx = u64::from(x & s > 0);
        let ry = u64::from(y & s > 0);
        d += s * s * ((3 * rx) ^ ry);
        hilbert_rot(n, &mut x, &mut y, rx, ry);
        s >>= 1;
    }
    d
}

/// The `(x, y)` of Hilbert index `d` on a `2^bits × 2^bits` grid (`d2xy`).
///
/// # Panics
/// If `bits` is 0 or above 32, or `d >= 4^bits`.
pub fn hilbert_decode(bits: u8, d: u64) -> (u32, u32) {
    assert!((1..=32).contains(&bits), "bits must be 1 to 32");
    let n = 1u64 << bits;
    assert!(
        bits == 32 || d < 1u64 << (2 * bits),
        "code outside the grid"
    );
    let (mut x, mut y) = (0u64, 0u64);
    let mut t = d;
    let mut s = 1u64;
    while s < n {
        let rx = 1 & (t / 2);
        let ry = 1 & (t ^ rx);
        hilbert_rot(s, &mut x, &mut y, rx, ry);
        x += s * rx;
        y += s * ry;
        t /= 4;
        s <<= 1;
    }
    // x, y < n <= 2^32.
    (x as u32, y as u32)
}

/// A grid of `2^bits × 2^bits` cells numbered along a [`Curve`].
///
/// ```
/// use lexikey::kinds::geo::{Curve, Grid};
/// let g = Grid::new(Curve::Morton, 1)?;
/// // Four cells: south-west 0, north-west 1, south-east 2, north-east 3.
/// assert_eq!([g.encode(-45.0, -90.0)?, g.encode(45.0, -90.0)?, g.encode(-45.0, 90.0)?, g.encode(45.0, 90.0)?], [0, 1, 2, 3]);
/// assert!(Grid::new(Curve::Morton, 33).is_err());
/// # Ok::<(), lexikey::kinds::geo::GeoError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    curve: Curve,
    bits: u8,
}

/// A rectangle of cells, inclusive on both ends.
#[derive(Debug, Clone, Copy)]
struct Rect {
    x0: u64,
    x1: u64,
    y0: u64,
    y1: u64,
}

impl Rect {
    fn cells(&self) -> u128 {
        u128::from(self.x1 - self.x0 + 1) * u128::from(self.y1 - self.y0 + 1)
    }

    /// Cells shared with the square node `[nx, nx + size) × [ny, ny + size)`.
    fn overlap(&self, nx: u64, ny: u64, size: u64) -> u128 {
        let (x0, x1) = (self.x0.max(nx), self.x1.min(nx + size - 1));
        let (y0, y1) = (self.y0.max(ny), self.y1.min(ny + size - 1));
        if x0 > x1 || y0 > y1 {
            return 0;
        }
        u128::from(x1 - x0 + 1) * u128::from(y1 - y0 + 1)
    }
}

impl Grid {
    /// A grid with `bits` bits per axis (1 to 32).
    ///
    /// # Errors
    /// [`GeoError::Precision`].
    pub const fn new(curve: Curve, bits: u8) -> Result<Grid, GeoError> {
        if bits == 0 || bits > 32 {
            return Err(GeoError::Precision { bits });
        }
        Ok(Grid { curve, bits })
    }

    /// The curve.
    pub const fn curve(&self) -> Curve {
        self.curve
    }

    /// Bits per axis.
    pub const fn bits(&self) -> u8 {
        self.bits
    }

    /// The number of cells per axis, `2^bits`.
    pub const fn side(&self) -> u64 {
        1 << self.bits
    }

    /// The largest code, `4^bits − 1`.
    pub const fn max_code(&self) -> u64 {
        if self.bits == 32 {
            u64::MAX
        } else {
            (1 << (2 * self.bits)) - 1
        }
    }

    fn axis(&self, v: f64, lo: f64, span: f64) -> u32 {
        let side = self.side() as f64;
        let c = ((v - lo) / span * side).floor();
        // 0 <= c <= side; side only for the top edge.
        (c as u64).min(self.side() - 1) as u32
    }

    /// The cell holding `(lat, lon)`.
    ///
    /// # Errors
    /// [`GeoError::Latitude`], [`GeoError::Longitude`] for values out of
    /// range or NaN.
    pub fn cell(&self, lat: f64, lon: f64) -> Result<Cell, GeoError> {
        if !(-90.0..=90.0).contains(&lat) {
            return Err(GeoError::Latitude { lat });
        }
        if !(-180.0..=180.0).contains(&lon) {
            return Err(GeoError::Longitude { lon });
        }
        Ok(Cell {
            x: self.axis(lon, -180.0, 360.0),
            y: self.axis(lat, -90.0, 180.0),
        })
    }

    /// The code of a cell.
    ///
    /// # Panics
    /// If the cell is outside the grid (`x` or `y` `>= 2^bits`).
    pub fn code(&self, cell: Cell) -> u64 {
        match self.curve {
            Curve::Morton => {
                assert!(
                    u64::from(cell.x) < self.side() && u64::from(cell.y) < self.side(),
                    "cell outside the grid"
                );
                morton_encode(cell.x, cell.y)
            }
            Curve::Hilbert => hilbert_encode(self.bits, cell.x, cell.y),
        }
    }

    /// The code of the cell holding `(lat, lon)`.
    ///
    /// # Errors
    /// As [`Grid::cell`].
    pub fn encode(&self, lat: f64, lon: f64) -> Result<u64, GeoError> {
        Ok(self.code(self.cell(lat, lon)?))
    }

    /// The code of `(lat, lon)` as an ascending `u64` key component.
    ///
    /// # Errors
    /// As [`Grid::cell`].
    pub fn component(&self, lat: f64, lon: f64) -> Result<Component<'static>, GeoError> {
        Ok(Component::asc(self.encode(lat, lon)?))
    }

    /// The cell of a code.
    ///
    /// # Errors
    /// [`GeoError::Code`] for a code `>= 4^bits`.
    pub fn decode(&self, code: u64) -> Result<Cell, GeoError> {
        if code > self.max_code() {
            return Err(GeoError::Code {
                code,
                bits: self.bits,
            });
        }
        let (x, y) = match self.curve {
            Curve::Morton => morton_decode(code),
            Curve::Hilbert => hilbert_decode(self.bits, code),
        };
        Ok(Cell { x, y })
    }

    /// The bounds of a code's cell, in degrees.
    ///
    /// # Errors
    /// As [`Grid::decode`].
    pub fn bounds(&self, code: u64) -> Result<Bounds, GeoError> {
        Ok(self.cell_bounds(self.decode(code)?))
    }

    /// The bounds of a cell, in degrees.
    pub fn cell_bounds(&self, cell: Cell) -> Bounds {
        let side = self.side() as f64;
        let lon = |x: u64| x as f64 / side * 360.0 - 180.0;
        let lat = |y: u64| y as f64 / side * 180.0 - 90.0;
        let (x, y) = (u64::from(cell.x), u64::from(cell.y));
        Bounds {
            min_lat: lat(y),
            min_lon: lon(x),
            max_lat: lat(y + 1),
            max_lon: lon(x + 1),
        }
    }

    /// The center `(lat, lon)` of a code's cell.
    ///
    /// # Errors
    /// As [`Grid::decode`].
    pub fn center(&self, code: u64) -> Result<(f64, f64), GeoError> {
        Ok(self.bounds(code)?.center())
    }

    /// Covers the box `[min_lat, max_lat] × [min_lon, max_lon]` (edges
    /// included) with at most `max_ranges` code intervals; see the module
    /// docs for the steps. A box with `min_lon > max_lon` crosses the
    /// antimeridian (it spans `min_lon` to 180 and −180 to `max_lon`).
    ///
    /// Every point inside the box has a code inside one of the intervals.
    ///
    /// # Errors
    /// [`GeoError::Latitude`], [`GeoError::Longitude`],
    /// [`GeoError::EmptyBox`] (`min_lat > max_lat`), [`GeoError::NoRanges`].
    ///
    /// ```
    /// use lexikey::kinds::geo::{Curve, Grid};
    /// let g = Grid::new(Curve::Hilbert, 16)?;
    /// // San Francisco, at most 4 ranges.
    /// let cover = g.bbox_ranges(37.70, -122.52, 37.82, -122.35, 4)?;
    /// assert!(cover.ranges.len() <= 4);
    /// assert!(cover.ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&g.encode(37.7749, -122.4194).unwrap())));
    /// assert!(cover.over_coverage < 0.5);
    /// // One range: the whole box in one scan, with more cells around it.
    /// let one = g.bbox_ranges(37.70, -122.52, 37.82, -122.35, 1)?;
    /// assert_eq!(one.ranges.len(), 1);
    /// assert!(one.over_coverage >= cover.over_coverage);
    /// # Ok::<(), lexikey::kinds::geo::GeoError>(())
    /// ```
    pub fn bbox_ranges(
        &self,
        min_lat: f64,
        min_lon: f64,
        max_lat: f64,
        max_lon: f64,
        max_ranges: usize,
    ) -> Result<Cover, GeoError> {
        if max_ranges == 0 {
            return Err(GeoError::NoRanges);
        }
        // 1. The cell rectangle(s).
        let sw = self.cell(min_lat, min_lon)?;
        let ne = self.cell(max_lat, max_lon)?;
        if min_lat > max_lat {
            return Err(GeoError::EmptyBox { min_lat, max_lat });
        }
        let (y0, y1) = (u64::from(sw.y), u64::from(ne.y));
        let (xw, xe) = (u64::from(sw.x), u64::from(ne.x));
        let rects: Vec<Rect> = if min_lon <= max_lon {
            vec![Rect {
                x0: xw,
                x1: xe,
                y0,
                y1,
            }]
        } else if xe >= xw {
            // Crossing the antimeridian, but both edges in one column: every
            // column is touched.
            vec![Rect {
                x0: 0,
                x1: self.side() - 1,
                y0,
                y1,
            }]
        } else {
            vec![
                Rect {
                    x0: 0,
                    x1: xe,
                    y0,
                    y1,
                },
                Rect {
                    x0: xw,
                    x1: self.side() - 1,
                    y0,
                    y1,
                },
            ]
        };
        let box_cells: u128 = rects.iter().map(Rect::cells).sum();
        // 2–3. Walk the quadtree level by level.
        let budget = max_ranges.saturating_mul(64).clamp(4096, 1 << 20);
        let mut kept: Vec<(u8, u64, u64)> = Vec::new(); // (level, bx, by)
        let mut partial: Vec<(u64, u64)> = vec![(0, 0)];
        let mut level = 0u8;
        loop {
            let size = 1u64 << (self.bits - level);
            let mut next = Vec::new();
            for &(bx, by) in &partial {
                let (nx, ny) = (bx * size, by * size);
                let inside: u128 = rects.iter().map(|r| r.overlap(nx, ny, size)).sum();
                let area = u128::from(size) * u128::from(size);
                if inside == area {
                    kept.push((level, bx, by));
                } else if inside > 0 {
                    next.push((bx, by));
                }
            }
            partial = next;
            if partial.is_empty() {
                break;
            }
            if level == self.bits || kept.len() + 4 * partial.len() > budget {
                kept.extend(partial.iter().map(|&(bx, by)| (level, bx, by)));
                break;
            }
            partial = partial
                .iter()
                .flat_map(|&(bx, by)| {
                    [(0, 0), (0, 1), (1, 0), (1, 1)].map(|(dx, dy)| (2 * bx + dx, 2 * by + dy))
                })
                .collect();
            level += 1;
        }
        let depth = level;
        // 4. Code intervals, sorted and joined.
        let mut ranges: Vec<(u64, u64)> = kept
            .iter()
            .map(|&(l, bx, by)| {
                let k = self.bits - l;
                // Any cell of the node gives the node's run: take its corner.
                // bx << k < 2^bits <= 2^32.
                let corner = Cell {
                    x: (bx << k) as u32,
                    y: (by << k) as u32,
                };
                let shift = 2 * u32::from(k);
                let j = u128::from(self.code(corner)) >> shift;
                let lo = j << shift;
                let hi = ((j + 1) << shift) - 1;
                // hi < 4^bits <= 2^64.
                (lo as u64, hi as u64)
            })
            .collect();
        ranges.sort_unstable();
        let mut joined: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match joined.last_mut() {
                Some(last) if last.1.checked_add(1).is_some_and(|n| n >= lo) => {
                    last.1 = last.1.max(hi)
                }
                _ => joined.push((lo, hi)),
            }
        }
        // 5. Fill the smallest gaps.
        let ranges = fill_gaps(joined, max_ranges);
        // 6. Over-coverage.
        let covered_cells: u128 = ranges.iter().map(|&(lo, hi)| u128::from(hi - lo) + 1).sum();
        let over_coverage = if covered_cells == 0 {
            0.0
        } else {
            (covered_cells - box_cells) as f64 / covered_cells as f64
        };
        Ok(Cover {
            ranges,
            covered_cells,
            box_cells,
            over_coverage,
            depth,
        })
    }
}

/// Joins sorted, disjoint intervals across their smallest gaps until at
/// most `max` remain: the `max − 1` widest gaps are kept (ties: the
/// earlier gap), every other one filled.
fn fill_gaps(ranges: Vec<(u64, u64)>, max: usize) -> Vec<(u64, u64)> {
    if ranges.len() <= max {
        return ranges;
    }
    // gaps[i]: the cells between ranges[i] and ranges[i + 1].
    let mut order: Vec<(u64, usize)> = ranges
        .windows(2)
        .enumerate()
        .map(|(i, w)| (w[1].0 - w[0].1 - 1, i))
        .collect();
    // Widest first; among equal gaps, the earlier one.
    order.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut keep = vec![false; ranges.len() - 1];
    for &(_, i) in order.iter().take(max - 1) {
        keep[i] = true;
    }
    let mut out = Vec::with_capacity(max);
    let mut cur = ranges[0];
    for (i, &r) in ranges.iter().enumerate().skip(1) {
        if keep[i - 1] {
            out.push(cur);
            cur = r;
        } else {
            cur.1 = r.1;
        }
    }
    out.push(cur);
    out
}

/// [`Grid::bbox_ranges`] as one call: the intervals and the over-coverage.
///
/// # Errors
/// [`GeoError::Precision`] and those of [`Grid::bbox_ranges`].
///
/// ```
/// use lexikey::kinds::geo::{bbox_ranges, Curve};
/// let (ranges, over) = bbox_ranges(Curve::Morton, -90.0, -180.0, 90.0, 180.0, 8, 4)?;
/// assert_eq!((ranges, over), (vec![(0, 0xFFFF)], 0.0)); // the whole globe
/// # Ok::<(), lexikey::kinds::geo::GeoError>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn bbox_ranges(
    curve: Curve,
    min_lat: f64,
    min_lon: f64,
    max_lat: f64,
    max_lon: f64,
    precision: u8,
    max_ranges: usize,
) -> Result<(Vec<(u64, u64)>, f64), GeoError> {
    let c =
        Grid::new(curve, precision)?.bbox_ranges(min_lat, min_lon, max_lat, max_lon, max_ranges)?;
    Ok((c.ranges, c.over_coverage))
}

/// The key ranges of code intervals under a tuple prefix: for each
/// inclusive `(lo, hi)`, the keys `prefix ++ [code, …]` with
/// `lo <= code <= hi` (ascending `u64` code; more components may follow
/// it), built with [`RangeQuery`] `ge(lo).le(hi)`.
///
/// # Errors
/// [`RangeError`] when the prefix does not encode in `format`.
///
/// ```
/// use lexikey::kinds::geo::key_ranges;
/// use lexikey::{Component, Format};
/// let r = key_ranges(Format::Hex, &[Component::asc("places")], &[(0x10, 0x1F)])?;
/// assert_eq!(r[0].start.as_deref(), Some(&b"places#u0000000000000010"[..]));
/// assert_eq!(r[0].end.as_deref(), Some(&b"places#u000000000000001F$"[..]));
/// # Ok::<(), lexikey::range::RangeError>(())
/// ```
pub fn key_ranges(
    format: Format,
    prefix: &[Component<'_>],
    ranges: &[(u64, u64)],
) -> Result<Vec<KeyRange>, RangeError> {
    ranges
        .iter()
        .map(|&(lo, hi)| {
            RangeQuery::new(format)
                .prefix(prefix)
                .ge(Component::asc(lo))
                .le(Component::asc(hi))
                .build()
        })
        .collect()
}
