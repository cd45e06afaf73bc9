//! Geo keys: Morton/Hilbert round trips and order properties, cell
//! round trips, bounding-box covers (every point inside is covered,
//! intervals sorted/disjoint/capped, over-coverage against brute force),
//! and key ranges over a `MemStore`.

mod common;

use lexikey::kinds::geo::{
    bbox_ranges, hilbert_decode, hilbert_encode, key_ranges, morton_decode, morton_encode, Cell,
    Cover, Curve, GeoError, Grid,
};
use lexikey::store::{MemStore, Store};
use lexikey::{tuple, Component, Field, Type, Value};
use proptest::prelude::*;

fn curves() -> impl Strategy<Value = Curve> {
    prop::sample::select(vec![Curve::Morton, Curve::Hilbert])
}

fn bits() -> impl Strategy<Value = u8> {
    prop_oneof![
        2 => prop::sample::select(vec![1u8, 2, 3, 16, 31, 32]),
        3 => 1u8..=32,
    ]
}

fn grids() -> impl Strategy<Value = Grid> {
    (curves(), bits()).prop_map(|(c, b)| Grid::new(c, b).expect("1..=32 bits"))
}

fn cells(bits: u8) -> impl Strategy<Value = Cell> {
    let max = ((1u64 << bits) - 1) as u32;
    let axis = prop_oneof![
        1 => prop::sample::select(vec![0, max, max / 2, max / 2 + 1]),
        3 => 0..=max,
    ];
    (axis.clone(), axis).prop_map(|(x, y)| Cell { x, y })
}

/// Coordinates in `[-limit, limit]`, edges and cell boundaries weighted up.
fn coord(limit: f64) -> BoxedStrategy<f64> {
    prop_oneof![
        1 => prop::sample::select(vec![-limit, limit, 0.0, -0.0, limit / 2.0, -limit / 2.0, limit / 64.0 * 3.0]),
        4 => -limit..=limit,
    ]
    .boxed()
}

fn lats() -> BoxedStrategy<f64> {
    coord(90.0)
}

fn lons() -> BoxedStrategy<f64> {
    coord(180.0)
}

/// A box: (min_lat, min_lon, max_lat, max_lon); `min_lon > max_lon` is a
/// box across the antimeridian.
fn boxes() -> impl Strategy<Value = (f64, f64, f64, f64)> {
    prop_oneof![
        // Any two corners.
        2 => (lats(), lats(), lons(), lons())
            .prop_map(|(a, b, c, d)| (a.min(b), c, a.max(b), d)),
        // Small boxes (a few cells at high precision).
        2 => (lats(), lons(), 0.0..0.5f64, 0.0..0.5f64).prop_map(|(lat, lon, h, w)| {
            (lat.min(90.0 - h), lon.min(180.0 - w), lat.min(90.0 - h) + h, lon.min(180.0 - w) + w)
        }),
    ]
}

/// Whether a point is inside a box (edges included; across the
/// antimeridian when `min_lon > max_lon`).
fn inside(b: (f64, f64, f64, f64), lat: f64, lon: f64) -> bool {
    let (min_lat, min_lon, max_lat, max_lon) = b;
    let lon_ok = if min_lon <= max_lon {
        (min_lon..=max_lon).contains(&lon)
    } else {
        lon >= min_lon || lon <= max_lon
    };
    (min_lat..=max_lat).contains(&lat) && lon_ok
}

/// A point inside the box, from two fractions in [0, 1].
fn point_in(b: (f64, f64, f64, f64), fy: f64, fx: f64) -> (f64, f64) {
    let (min_lat, min_lon, max_lat, max_lon) = b;
    let lat = (min_lat + (max_lat - min_lat) * fy).clamp(min_lat, max_lat);
    let lon = if min_lon <= max_lon {
        (min_lon + (max_lon - min_lon) * fx).clamp(min_lon, max_lon)
    } else {
        // Across the antimeridian: walk east from min_lon, wrapping at 180.
        let width = 360.0 - (min_lon - max_lon);
        let l = min_lon + width * fx;
        if l > 180.0 {
            (l - 360.0).min(max_lon)
        } else {
            l
        }
    };
    (lat, lon)
}

fn fractions() -> BoxedStrategy<f64> {
    prop_oneof![1 => prop::sample::select(vec![0.0, 1.0, 0.5]), 3 => 0.0..=1.0f64].boxed()
}

fn covered(cover: &Cover, code: u64) -> bool {
    // Intervals are sorted: binary search for the last one starting <= code.
    let i = cover.ranges.partition_point(|&(lo, _)| lo <= code);
    i > 0 && code <= cover.ranges[i - 1].1
}

/// Intervals sorted, disjoint, not touching, at most `max`, and the counts
/// add up.
fn check_shape(cover: &Cover, max: usize) -> Result<(), TestCaseError> {
    prop_assert!(!cover.ranges.is_empty());
    prop_assert!(
        cover.ranges.len() <= max,
        "{} > {}",
        cover.ranges.len(),
        max
    );
    for &(lo, hi) in &cover.ranges {
        prop_assert!(lo <= hi);
    }
    for w in cover.ranges.windows(2) {
        prop_assert!(
            w[0].1.checked_add(1).is_some_and(|n| n < w[1].0),
            "{:?} then {:?}",
            w[0],
            w[1]
        );
    }
    let sum: u128 = cover
        .ranges
        .iter()
        .map(|&(lo, hi)| u128::from(hi - lo) + 1)
        .sum();
    prop_assert_eq!(sum, cover.covered_cells);
    prop_assert!(cover.box_cells <= cover.covered_cells);
    let over = (cover.covered_cells - cover.box_cells) as f64 / cover.covered_cells as f64;
    prop_assert!((over - cover.over_coverage).abs() < 1e-12);
    Ok(())
}

proptest! {
    #![proptest_config(common::config())]

    /// Morton: round trip both ways, and monotone in each coordinate.
    #[test]
    fn morton_round_trip_and_order(x in any::<u32>(), y in any::<u32>(), x2 in any::<u32>(), y2 in any::<u32>(), c in any::<u64>()) {
        prop_assert_eq!(morton_decode(morton_encode(x, y)), (x, y));
        prop_assert_eq!(morton_encode(morton_decode(c).0, morton_decode(c).1), c);
        let (lx, hx) = (x.min(x2), x.max(x2));
        let (ly, hy) = (y.min(y2), y.max(y2));
        prop_assert!(morton_encode(lx, ly) <= morton_encode(hx, hy));
        // Lexicographic on (x bit, y bit) pairs from the top: the highest
        // differing bit decides, x before y on a tie of position.
        let (dx, dy) = (x ^ x2, y ^ y2);
        if (dx | dy) != 0 {
            let top_x = 31 - dx.leading_zeros() as i32;
            let top_y = 31 - dy.leading_zeros() as i32;
            let by_x = dx != 0 && (dy == 0 || top_x >= top_y);
            let expect = if by_x { x.cmp(&x2) } else { y.cmp(&y2) };
            prop_assert_eq!(morton_encode(x, y).cmp(&morton_encode(x2, y2)), expect);
        }
    }

    /// Hilbert: round trip both ways; consecutive codes are edge-adjacent
    /// cells.
    #[test]
    fn hilbert_round_trip_and_adjacency(b in bits(), seed in any::<u64>(), cell_seed in any::<(u32, u32)>()) {
        let max = if b == 32 { u64::MAX } else { (1u64 << (2 * b)) - 1 };
        let d = if b == 32 { seed } else { seed % (max + 1) };
        let (x, y) = hilbert_decode(b, d);
        prop_assert!(u64::from(x) < 1 << b && u64::from(y) < 1 << b);
        prop_assert_eq!(hilbert_encode(b, x, y), d);
        let mask = ((1u64 << b) - 1) as u32;
        let (cx, cy) = (cell_seed.0 & mask, cell_seed.1 & mask);
        prop_assert_eq!(hilbert_decode(b, hilbert_encode(b, cx, cy)), (cx, cy));
        if d < max {
            let (x2, y2) = hilbert_decode(b, d + 1);
            prop_assert_eq!(x.abs_diff(x2) + y.abs_diff(y2), 1, "{} -> {}", d, d + 1);
        }
    }

    /// Both curves: an aligned 2^k block is one run of codes
    /// `[j·4^k, (j+1)·4^k)` (what the box cover relies on); decode(encode)
    /// is the identity on cells; key order is code order in every format.
    #[test]
    fn grid_cells(
        (g, a, c) in grids().prop_flat_map(|g| (Just(g), cells(g.bits()), cells(g.bits()))),
        k in 0u8..=32,
        format in common::formats(),
        raw in any::<u64>(),
        shift in prop_oneof![Just(0u32), 0u32..64],
    ) {
        let k = k.min(g.bits());
        let (ca, cc) = (g.code(a), g.code(c));
        prop_assert_eq!(g.decode(ca), Ok(a));
        prop_assert!(ca <= g.max_code());
        let same_block = u64::from(a.x) >> k == u64::from(c.x) >> k && u64::from(a.y) >> k == u64::from(c.y) >> k;
        let same_run = u128::from(ca) >> (2 * k) == u128::from(cc) >> (2 * k);
        prop_assert_eq!(same_block, same_run);
        let enc = |code: u64| tuple::encode(format, &[Component::asc(code)]).expect("u64 encodes");
        prop_assert_eq!(ca.cmp(&cc), enc(ca).cmp(&enc(cc)));
        // Canonical decode of a key: its u64 is a cell of this grid exactly
        // when it is below 4^bits, and then the cell re-encodes to it.
        let any_code = raw >> shift;
        let key = enc(any_code);
        let parts = tuple::decode(format, &key, Some(&[Field::asc(Type::U64)])).expect("decodes");
        prop_assert_eq!(&parts[0].value, &Value::U64(any_code));
        match g.decode(any_code) {
            Ok(cell) => {
                prop_assert!(any_code <= g.max_code());
                prop_assert_eq!(g.code(cell), any_code);
                prop_assert_eq!(enc(g.code(cell)), key);
            }
            Err(e) => {
                prop_assert!(any_code > g.max_code());
                prop_assert_eq!(e, GeoError::Code { code: any_code, bits: g.bits() });
            }
        }
    }

    /// A cell's center encodes back to the cell; a point lies inside the
    /// bounds of its own cell.
    #[test]
    fn cell_round_trip(
        (g, cell) in grids().prop_flat_map(|g| (Just(g), cells(g.bits()))),
        lat in lats(),
        lon in lons(),
    ) {
        let code = g.code(cell);
        let (clat, clon) = g.center(code).unwrap();
        prop_assert_eq!(g.cell(clat, clon), Ok(cell));
        prop_assert_eq!(g.encode(clat, clon), Ok(code));
        let b = g.bounds(g.encode(lat, lon).unwrap()).unwrap();
        prop_assert!(b.min_lat <= lat && (lat < b.max_lat || b.max_lat == 90.0), "{} in {:?}", lat, b);
        prop_assert!(b.min_lon <= lon && (lon < b.max_lon || b.max_lon == 180.0), "{} in {:?}", lon, b);
    }

    /// Every point inside the box has a code inside one of the intervals;
    /// the intervals are sorted, disjoint and at most `max_ranges`.
    #[test]
    fn bbox_covers_every_point(
        g in grids(),
        bx in boxes(),
        max in prop_oneof![1 => Just(1usize), 3 => 1usize..24],
        points in prop::collection::vec((fractions(), fractions()), 1..8),
    ) {
        let cover = g.bbox_ranges(bx.0, bx.1, bx.2, bx.3, max).unwrap();
        check_shape(&cover, max)?;
        prop_assert!(cover.depth <= g.bits());
        for (fy, fx) in points {
            let (lat, lon) = point_in(bx, fy, fx);
            prop_assert!(inside(bx, lat, lon));
            let code = g.encode(lat, lon).unwrap();
            prop_assert!(covered(&cover, code), "({}, {}) code {} not covered by {:?}", lat, lon, code, cover.ranges);
        }
        // The free function agrees.
        let (ranges, over) = bbox_ranges(g.curve(), bx.0, bx.1, bx.2, bx.3, g.bits(), max).unwrap();
        prop_assert_eq!((ranges, over), (cover.ranges.clone(), cover.over_coverage));
    }

    /// At low precision, against brute force over every cell: the cells
    /// the box touches are all covered, `box_cells` counts them, and the
    /// over-coverage is the fraction of covered cells that do not touch it.
    #[test]
    fn over_coverage_is_exact(
        curve in curves(),
        b in 1u8..=6,
        bx in boxes(),
        max in 1usize..12,
    ) {
        let g = Grid::new(curve, b).unwrap();
        let cover = g.bbox_ranges(bx.0, bx.1, bx.2, bx.3, max).unwrap();
        check_shape(&cover, max)?;
        let (min_lat, min_lon, max_lat, max_lon) = bx;
        let top = |v: f64, lim: f64| v == lim;
        let touches = |code: u64| {
            let c = g.bounds(code).unwrap();
            let lat_ok = c.min_lat <= max_lat && (c.max_lat > min_lat || top(c.max_lat, 90.0));
            let lon_range = |lo: f64, hi: f64| c.min_lon <= hi && (c.max_lon > lo || top(c.max_lon, 180.0));
            let lon_ok = if min_lon <= max_lon {
                lon_range(min_lon, max_lon)
            } else {
                lon_range(min_lon, 180.0) || lon_range(-180.0, max_lon)
            };
            lat_ok && lon_ok
        };
        let mut box_cells = 0u128;
        let mut covered_outside = 0u128;
        for code in 0..=g.max_code() {
            let t = touches(code);
            let cov = covered(&cover, code);
            if t {
                box_cells += 1;
                prop_assert!(cov, "cell {} touches the box but is not covered", code);
            } else if cov {
                covered_outside += 1;
            }
        }
        prop_assert_eq!(box_cells, cover.box_cells);
        prop_assert_eq!(cover.covered_cells, box_cells + covered_outside);
        let over = covered_outside as f64 / cover.covered_cells as f64;
        prop_assert!((over - cover.over_coverage).abs() < 1e-12);
        // With room for every run, the cover is exact.
        let exact = g.bbox_ranges(bx.0, bx.1, bx.2, bx.3, usize::MAX / 64).unwrap();
        prop_assert_eq!(exact.over_coverage, 0.0);
        prop_assert_eq!(exact.covered_cells, box_cells);
    }

    /// Key ranges under a prefix hold exactly the rows whose code is in an
    /// interval — so every row inside the box — in every format.
    #[test]
    fn key_ranges_hold_the_box(
        g in grids(),
        bx in boxes(),
        max in 1usize..10,
        format in common::formats(),
        tenant in common::strings(),
        points in prop::collection::vec((lats(), lons()), 1..16),
    ) {
        let cover = g.bbox_ranges(bx.0, bx.1, bx.2, bx.3, max).unwrap();
        let prefix = [Component::asc(tenant.clone())];
        let store = MemStore::new();
        for (i, &(lat, lon)) in points.iter().enumerate() {
            let key = tuple::encode(format, &[
                Component::asc(tenant.clone()),
                g.component(lat, lon).unwrap(),
                Component::asc(i as u64),
            ]).unwrap();
            store.put_if_absent(&key, b"").unwrap();
        }
        // Another tenant's rows with the same codes: never in range.
        let other = format!("{tenant}x");
        for &(lat, lon) in &points {
            let key = tuple::encode(format, &[Component::asc(other.as_str()), g.component(lat, lon).unwrap()]).unwrap();
            let _ = store.put_if_absent(&key, b"other").unwrap();
        }
        let schema = [Field::asc(Type::Str), Field::asc(Type::U64), Field::asc(Type::U64)];
        let mut found = Vec::new();
        for r in key_ranges(format, &prefix, &cover.ranges).unwrap() {
            for (k, v) in store.scan(&r, usize::MAX).unwrap() {
                prop_assert_eq!(v, b"".to_vec());
                let parts = tuple::decode(format, &k, Some(&schema)).unwrap();
                let (Value::U64(code), Value::U64(i)) = (&parts[1].value, &parts[2].value) else {
                    unreachable!("schema")
                };
                prop_assert!(covered(&cover, *code));
                found.push(*i as usize);
            }
        }
        found.sort_unstable();
        let expected: Vec<usize> = (0..points.len())
            .filter(|&i| covered(&cover, g.encode(points[i].0, points[i].1).unwrap()))
            .collect();
        prop_assert_eq!(&found, &expected);
        for (i, &(lat, lon)) in points.iter().enumerate() {
            if inside(bx, lat, lon) {
                prop_assert!(found.contains(&i));
            }
        }
    }
}

#[test]
fn errors() {
    assert_eq!(
        Grid::new(Curve::Morton, 0),
        Err(GeoError::Precision { bits: 0 })
    );
    assert!(Grid::new(Curve::Hilbert, 33).is_err());
    let g = Grid::new(Curve::Hilbert, 4).unwrap();
    assert_eq!(g.encode(90.5, 0.0), Err(GeoError::Latitude { lat: 90.5 }));
    assert!(matches!(
        g.encode(0.0, f64::NAN),
        Err(GeoError::Longitude { .. })
    ));
    assert!(g.encode(f64::NAN, 0.0).is_err());
    assert_eq!(g.decode(256), Err(GeoError::Code { code: 256, bits: 4 }));
    assert_eq!(
        g.decode(256).unwrap_err().to_string(),
        "code 256 is not a cell of a 4-bit grid (codes are below 4^4)"
    );
    assert!(matches!(
        g.bbox_ranges(10.0, 0.0, 5.0, 1.0, 4),
        Err(GeoError::EmptyBox { .. })
    ));
    assert_eq!(
        g.bbox_ranges(0.0, 0.0, 1.0, 1.0, 0),
        Err(GeoError::NoRanges)
    );
    assert_eq!(Curve::from_name("hilbert"), Some(Curve::Hilbert));
    assert_eq!(Curve::Morton.to_string(), "morton");
}

#[test]
fn edges_and_golden_codes() {
    let g = Grid::new(Curve::Morton, 32).unwrap();
    assert_eq!(g.encode(-90.0, -180.0).unwrap(), 0);
    assert_eq!(g.encode(90.0, 180.0).unwrap(), u64::MAX);
    // Geohash "ezs42" (lat 42.6, lon -5.6) starts with "ez": 01101 11111.
    let g5 = Grid::new(Curve::Morton, 5).unwrap();
    assert_eq!(g5.encode(42.6, -5.6).unwrap(), 0b01101_11111);
    // Hilbert: the whole globe at order 1 walks SW, NW, NE, SE.
    let h = Grid::new(Curve::Hilbert, 1).unwrap();
    let codes: Vec<u64> = [(-45.0, -90.0), (45.0, -90.0), (45.0, 90.0), (-45.0, 90.0)]
        .iter()
        .map(|&(lat, lon)| h.encode(lat, lon).unwrap())
        .collect();
    assert_eq!(codes, [0, 1, 2, 3]);
    let h32 = Grid::new(Curve::Hilbert, 32).unwrap();
    assert_eq!(h32.max_code(), u64::MAX);
    assert_eq!(h32.decode(u64::MAX).unwrap(), Cell { x: u32::MAX, y: 0 });
    // The whole globe is one range.
    for curve in [Curve::Morton, Curve::Hilbert] {
        let c = Grid::new(curve, 32)
            .unwrap()
            .bbox_ranges(-90.0, -180.0, 90.0, 180.0, 3)
            .unwrap();
        assert_eq!(c.ranges, [(0, u64::MAX)]);
        assert_eq!(c.covered_cells, 1u128 << 64);
        assert_eq!(c.over_coverage, 0.0);
    }
    // Across the antimeridian (Fiji, 177E to 178W): two runs of columns.
    let g = Grid::new(Curve::Hilbert, 8).unwrap();
    let c = g.bbox_ranges(-19.0, 177.0, -16.0, -178.0, 64).unwrap();
    assert_eq!(c.over_coverage, 0.0);
    assert!(c
        .ranges
        .iter()
        .any(|&(lo, hi)| (lo..=hi).contains(&g.encode(-17.7, 178.1).unwrap())));
    assert!(c
        .ranges
        .iter()
        .any(|&(lo, hi)| (lo..=hi).contains(&g.encode(-17.7, -179.9).unwrap())));
    assert!(!c
        .ranges
        .iter()
        .any(|&(lo, hi)| (lo..=hi).contains(&g.encode(-17.7, 0.0).unwrap())));
}

/// The over-coverage table of the module docs (San Francisco).
#[test]
fn over_coverage_examples() {
    let sf = (37.70, -122.52, 37.82, -122.35);
    let table = [
        (
            Curve::Hilbert,
            20,
            [
                (1, 0.8194),
                (4, 0.3535),
                (8, 0.2308),
                (16, 0.1001),
                (64, 0.0139),
            ],
        ),
        (
            Curve::Morton,
            20,
            [
                (1, 0.7688),
                (4, 0.5762),
                (8, 0.3458),
                (16, 0.2102),
                (64, 0.0399),
            ],
        ),
        (
            Curve::Hilbert,
            16,
            [
                (1, 0.8125),
                (4, 0.3295),
                (8, 0.2036),
                (16, 0.0712),
                (64, 0.0),
            ],
        ),
    ];
    for (curve, b, rows) in table {
        let g = Grid::new(curve, b).unwrap();
        for (max, expected) in rows {
            let c = g.bbox_ranges(sf.0, sf.1, sf.2, sf.3, max).unwrap();
            eprintln!(
                "{curve} {b} bits, max {max}: {} ranges, over-coverage {:.4}, box {} cells, covered {}",
                c.ranges.len(),
                c.over_coverage,
                c.box_cells,
                c.covered_cells
            );
            assert!(
                (c.over_coverage - expected).abs() < 0.0001,
                "{curve} {b} max {max}: {}",
                c.over_coverage
            );
        }
    }
    let c = Grid::new(Curve::Hilbert, 16)
        .unwrap()
        .bbox_ranges(sf.0, sf.1, sf.2, sf.3, 64)
        .unwrap();
    assert_eq!((c.ranges.len(), c.box_cells), (45, 1408));
}
