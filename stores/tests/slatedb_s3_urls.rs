//! `slatedb:s3://BUCKET/PREFIX?endpoint=…&region=…` URLs (issue 41's
//! contract), as properties over generated parts: every URL built from
//! valid parts parses to exactly those parts, in any option order, and its
//! canonical form parses back to the same store; a bucket name outside
//! S3's naming rules is refused with a message naming it. No server.

#![allow(missing_docs)]

use lexikey_stores::{parse_url, SlateS3, StoreSpec};
use proptest::prelude::*;

#[path = "../../tests/support/size.rs"]
mod size;

/// S3's bucket naming rules: 3 to 63 of a-z 0-9 . -, a letter or digit at
/// both ends.
fn bucket() -> impl Strategy<Value = String> {
    "[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]"
}

/// 0 to 3 path segments, none empty, `.` or `..`.
fn prefix() -> impl Strategy<Value = String> {
    prop::collection::vec("[A-Za-z0-9_=+-][A-Za-z0-9_.=+-]{0,10}", 0..4).prop_map(|v| v.join("/"))
}

fn endpoint() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        (1u16..).prop_map(|p| Some(format!("http://127.0.0.1:{p}"))),
        "[a-z][a-z0-9-]{0,10}(\\.[a-z]{2,5}){1,2}".prop_map(|h| Some(format!("https://{h}"))),
    ]
}

fn region() -> impl Strategy<Value = Option<String>> {
    prop::option::of("[a-z]{2}-[a-z]{4,9}-[1-9]")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(size::cases(10_000)))]

    #[test]
    fn valid_urls_parse_to_their_parts_and_round_trip(
        bucket in bucket(),
        prefix in prefix(),
        slash in any::<bool>(),
        endpoint in endpoint(),
        region in region(),
        ns in prop::option::of("[A-Za-z0-9_.-]{1,48}"),
        wait in prop::option::of(0u64..100_000),
        order in any::<u64>(),
    ) {
        let mut opts: Vec<String> = Vec::new();
        if let Some(e) = &endpoint { opts.push(format!("endpoint={e}")); }
        if let Some(r) = &region { opts.push(format!("region={r}")); }
        if let Some(n) = &ns { opts.push(format!("ns={n}")); }
        if let Some(w) = wait { opts.push(format!("wait_ms={w}")); }
        // Options in any order: rotate them.
        if !opts.is_empty() {
            let k = (order % opts.len() as u64) as usize;
            opts.rotate_left(k);
        }
        let location = match (prefix.is_empty(), slash) {
            (true, false) => bucket.clone(),
            (true, true) => format!("{bucket}/"),
            (false, s) => format!("{bucket}/{prefix}{}", if s { "/" } else { "" }),
        };
        let url = if opts.is_empty() {
            format!("slatedb:s3://{location}")
        } else {
            format!("slatedb:s3://{location}?{}", opts.join("&"))
        };
        let spec = parse_url(&url).map_err(|e| TestCaseError::fail(format!("{url}: {e}")))?;
        let StoreSpec::Slatedb { path, options } = &spec else {
            return Err(TestCaseError::fail(format!("{url}: {spec:?}")));
        };
        let want_path = if prefix.is_empty() {
            format!("s3://{bucket}")
        } else {
            format!("s3://{bucket}/{prefix}")
        };
        prop_assert_eq!(path, &want_path);
        prop_assert_eq!(
            options.s3.as_ref(),
            Some(&SlateS3 { bucket: bucket.clone(), prefix: prefix.clone(), endpoint, region })
        );
        prop_assert_eq!(&options.namespace, ns.as_deref().unwrap_or("lexikey"));
        prop_assert_eq!(options.wait.as_millis() as u64, wait.unwrap_or(30_000));
        prop_assert_eq!(spec.feature(), Some("slatedb"));
        let canonical = spec.to_url();
        let again = parse_url(&canonical).map_err(|e| TestCaseError::fail(format!("{canonical}: {e}")))?;
        prop_assert_eq!(&again, &spec);
        prop_assert_eq!(again.to_url(), canonical);
    }

    #[test]
    fn bucket_names_outside_the_rules_are_refused(
        bucket in prop_oneof![
            "[a-z0-9]{0,2}",                      // too short
            "[a-z0-9]{64,70}",                    // too long
            "[a-z0-9]{1,10}[A-Z_][a-z0-9]{1,10}", // a character S3 refuses
            "[.-][a-z0-9]{2,10}",                 // a bad first character
            "[a-z0-9]{2,10}[.-]",                 // a bad last character
        ],
        prefix in prefix(),
    ) {
        let url = format!("slatedb:s3://{bucket}/{prefix}");
        let e = parse_url(&url).expect_err(&url);
        prop_assert!(!e.retryable);
        let msg = e.to_string();
        prop_assert!(msg.contains(&format!("bad S3 bucket name {bucket:?}")), "{}", msg);
        prop_assert!(!msg.contains('\n'), "{}", msg);
    }
}
