//! Hash maps for the caches consulted per character or per run: foldhash, seeded per process.
//!
//! The standard SipHash cost about 40 instructions per lookup of a `(char, bool, bool)`
//! key: poi stress010 makes 177,000 fallback-face lookups, and with these maps fell from
//! 1.59 G to 1.54 G instructions (callgrind). The style, list and font tables looked up
//! for every paragraph and run use them too: a one-page conversion 18.27 M → 18.06 M. The
//! keys come from uploads, so the hasher stays randomly seeded.

use std::collections::HashMap;

/// A `HashMap` with foldhash's seeded fast hasher; make one with `FastMap::default()`.
pub type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
