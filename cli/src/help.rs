//! The help texts of the subcommands (`lexikey COMMAND --help`, `lexikey help
//! COMMAND`, the man pages): one module that both the grammar
//! ([`crate::args`]) and the subcommands ([`crate::cmd`]) read, so neither
//! depends on the other for them.

/// Help text.
pub(crate) const ENCODE: &str = "\
Usage:
  lexikey encode [--format F] [--width N] [--json] COMPONENT...
  lexikey encode --schema TYPE[.desc],... --stdin [--format F] [--width N] [--json]
  (also: [--salt-buckets N [--salt-mode fast|phoenix]] [--curve C] [--bits B], below)

Prints the key of the tuple of COMPONENTs and a newline. COMPONENT is TYPE[.desc]:VALUE
(everything after the first ':' is the value, verbatim), e.g.
  lexikey encode str:population i64:3831868      ->  population#l80000000003A783C

TYPE is str, i64, u64, i32, u32, f64, f32, bool, bytes (hex), ts (RFC 3339, or an
integer with its unit: 1714564800s, ...ms, ...us, ...ns; a bare integer is milliseconds),
uuid (hyphenated), dec (a decimal of any size, exact: 10.50, -1e-30), or one of these,
stored as a core type:
  ulid     a ULID (26 Crockford base32 symbols; either case, I/L read as 1, O as 0; a
           first symbol above 7 is refused), stored as the uuid of the same 128 bits
  uuid7    a hyphenated UUID of version 7 and the RFC 9562 variant, stored as uuid;
           any other UUID is refused (use uuid: for those)
  geo      LAT,LON in degrees, stored as the u64 code of its cell on the grid of
           --curve (hilbert, the default, or morton: the geohash bit order) and --bits
           (bits per axis, 1 to 32; default 32, the whole u64)
e.g.
  lexikey encode str:event ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV  ->  event#g01563E3AB5D3D6764C61EFB99302BD5B
  lexikey encode --bits 16 str:places geo:37.7749,-122.4194   ->  places#u000000004B71B06D

Nullable components: TYPE? (i64?, str?.desc) may be null; its null is the type alone,
with no ':' and no value, a present value TYPE?:VALUE. Nulls sort first in the key order
whatever the direction, or last with .nulls_last (i64?.nulls_last, i64?.desc.nulls_last):
  lexikey encode str:age i64?          ->  age#-
  lexikey encode str:age i64?:5        ->  age#=l8000000000000005
A null in a component without the ? is an error. Layout: docs/cli.md.

Salting (hex, base64, decimal, binary):
  --salt-buckets N   put the key's salt bucket (0 to N-1, N from 1 to 255) in front of
                the key: two UPPERCASE hex digits and '#' in text formats (00#...), one
                byte in binary. The bucket hashes the unsalted key:
  --salt-mode M fast (default: FNV-1a + fmix64, fixed forever) or phoenix (Apache
                Phoenix's abs(Arrays.hashCode(key) % N))
e.g.
  lexikey encode --salt-buckets 16 str:events i64:42  ->  00#events#l800000000000002A

Options:
  --format F    hex (default), base64, decimal, binary (printed as lowercase hex), or an
                interop profile: fdb-tuple, hbase-ordered, phoenix (below)
  --width N     decimal only: width in digits of every integer component (i64, u64,
                i32, u32, ts; the sign slot of signed types counts), 1 to 20; a value
                that does not fit is an error. Default: the type's full width.
  --json        print {\"key\":\"...\"} instead of the bare key
  --max-key-len N  refuse keys longer than N bytes (default 32767, HBase's row-key
                limit; 65535 is Cassandra's)
  --stdin       bulk mode: read one row per line from standard input, each row the
                tab-separated VALUEs of the --schema fields, and print one key per
                line (one JSON object per line with --json). Lines are split on \\n only
                (a \\r is part of the last value). The first bad row stops the run:
                the keys of the rows before it are printed, then one error line
                naming the line number, exit code 2. In a nullable field (TYPE?) the
                cell \\N is the null (PostgreSQL COPY's, MySQL's and Hive's spelling;
                an empty cell stays the empty string), and a cell of two or more
                backslashes and N is that text with one backslash less (\\\\N is the
                str \\N); the cells of fields without the ? are their text, always.
  --schema S    bulk mode: the fields, e.g. str,i64.desc
  --quiet       bulk mode: no progress display (shown on stderr only when it is a
                terminal: the rows so far and rows/s)

Interop profiles: keys byte for byte as Java (HBase OrderedBytes/Struct, Apache Phoenix)
and the FoundationDB tuple layer write them, printed as lowercase hex:
  lexikey encode --format fdb-tuple|hbase-ordered|phoenix [--salt-buckets N] [--json]
                 COMPONENT...
  lexikey encode --format PROFILE --schema TYPE[.desc],... --stdin [--salt-buckets N] [--json]
COMPONENT is in the profile's own syntax:
  fdb-tuple      null:, bytes:HEX, str:TEXT, int:DEC (up to 255 bytes of magnitude; i64,
                 u64, i32, u32 are range-checked aliases), f32:, f64: (also 0x + the raw
                 IEEE bits), bool:, uuid:, versionstamp:HEX24 (10 bytes of transaction
                 version, 2 of user version; ffffffffffffffffffff then the user version
                 is an incomplete one), nested:[ELEMENT, ...] (a nested tuple of these
                 components, up to 100 levels deep; inside it a string writes \\ , [ ]
                 as \\\\ \\, \\[ \\]). No .desc: the tuple layer has no descending order.
  --versionstamp fdb-tuple: the key for FoundationDB's SET_VERSIONSTAMPED_KEY: exactly
                 one component (at any depth) is an incomplete versionstamp, and the key
                 ends with its offset, 4 bytes little-endian (pack_with_versionstamp)
  hbase-ordered  KIND[.desc]:VALUE, KIND one of int8, int16, int32, int64, float32,
                 float64, numeric (decimal, 1.5e-7, inf, -inf, NaN), text, blob-var,
                 blob-copy (hex; the last field only). A bare KIND[.desc] is null;
                 trailing nulls are left out, as HBase's Struct does.
  phoenix        TYPE[.desc]:VALUE, TYPE the column's SQL type in lowercase: tinyint,
                 smallint, integer (int), bigint, unsigned_tinyint, unsigned_smallint,
                 unsigned_int, unsigned_long, float, double, unsigned_float,
                 unsigned_double, boolean, date, time, timestamp (RFC 3339 or integer
                 milliseconds; timestamp takes up to 9 fraction digits), unsigned_date,
                 unsigned_time, unsigned_timestamp, varchar, varbinary (hex; the last
                 column only), decimal (1.5, -0.001, 1E+30: up to 38 significant digits,
                 1e-126 <= |v| < 1e124; 1.0 and 1 are one key), char(N) (ASCII text of at
                 most N characters, space-padded; trailing spaces are padding), binary(N)
                 (hex, at most N bytes, zero-padded). A bare TYPE[.desc] or an empty
                 varchar:/varbinary:/decimal: is null; an empty char(N):/binary(N): is
                 all padding (fixed-width columns are never null).
                 The columns are the primary key's, in order (a table created by Phoenix
                 4.4 or later); trailing nulls are left out, as Phoenix does.
  --salt-buckets N  phoenix: the table's SALT_BUCKETS (1 to 256); the key starts with
                 the salt byte, computed from the rest of the key
  --round        phoenix: a decimal of more than 38 significant digits is rounded half
                 up to 38, as Phoenix does before writing it, and the key of that value
                 is printed (without --round such a value is an error naming it)
  --hbase-numeric current|legacy  hbase-ordered: the numeric encoder of numbers of
                 100^351 and above. current (default): HBase 2.5.0 and later
                 (HBASE-26566), every exponent; legacy: HBase 2.4.x and older, whose
                 encoder wrote such numbers as keys that read back as other numbers
e.g.
  lexikey encode --format fdb-tuple str:hello int:5           ->  0268656c6c6f001505
  lexikey encode --format fdb-tuple int:1 nested:[int:2,null:] str:x  ->  150105150200ff00027800
  lexikey encode --format fdb-tuple --versionstamp versionstamp:ffffffffffffffffffff0000  ->  33ffffffffffffffffffff000001000000
  lexikey encode --format hbase-ordered numeric:1 text:foo    ->  180234666f6f00
  lexikey encode --format phoenix varchar:a bigint.desc:1     ->  61007ffffffffffffffe
  lexikey encode --format phoenix --salt-buckets 4 varchar:a  ->  0061
  lexikey encode --format phoenix decimal:-1.5 char(3):ab     ->  3e64336600616220
  lexikey encode --format hbase-ordered numeric:1e1000        ->  22f20502
  lexikey encode --format phoenix --round decimal:99.9999999999999999999999999999999999999  ->  c202
With --stdin, each line holds the tab-separated VALUEs (the text after the ':') of
the --schema fields; an fdb-tuple schema lists element types (str,int). In bulk mode
an hbase-ordered text cell is never null (an empty cell is the empty string), and a
phoenix varchar, varbinary or decimal cell is null when empty.
";

/// Help text.
pub(crate) const DECODE: &str = "\
Usage:
  lexikey decode [--format F] [--schema TYPE[.desc],...] [--width N] [--json | --values] KEY
  lexikey decode --stdin [--format F] [--schema ...] [--width N] [--json | --values]
  (also: [--salt-buckets N [--salt-mode fast|phoenix]] [--curve C] [--bits B], below)

Prints one TYPE[.desc]:VALUE line per component of KEY (the COMPONENT syntax of
'lexikey encode', so the output encodes back to the same key), e.g.
  lexikey decode population#l80000000003A783C    ->  str:population
                                                     i64:3831868
Decoding is canonical: a key the encoder could not have produced (wrong case, width,
tag or escape, truncated, trailing bytes, invalid UTF-8) is an error naming the byte.

Options:
  --format F    hex (default), base64, decimal, binary (KEY given as hex, either case),
                or an interop profile: fdb-tuple, hbase-ordered, phoenix (below)
  --schema S    the fields, e.g. str,i64.desc; required for decimal and binary keys.
                Without it, hex and base64 keys are read by their tags: a part that
                is not a valid tagged value is read as an ascending str.
  --width N     decimal only: the width of every integer field (as in encode)
  --max-key-len N  refuse keys longer than N bytes (default 32767, HBase's row-key
                limit; 65535 is Cassandra's)
  --json        print {\"components\":[{\"type\":\"i64\",\"dir\":\"asc\",\"value\":3831868},...]}
                (integers as JSON numbers, NaN/inf as strings, bytes/ts/uuid as strings)
  --values      print the values alone, without TYPE[.desc]: (TAB-separated with
                --stdin): what 'encode --stdin --schema S' reads back, so
                  lexikey decode --stdin --schema S --values | lexikey encode --stdin --schema S
                gives back the keys byte for byte (with the schema, a .desc str is its
                value, not its stored bytes; a nullable field's null is \\N, as
                encode --stdin reads it)
  --output O    components (the default: TYPE[.desc]:VALUE), values (= --values) or
                json (= --json)
  --stdin       bulk mode: one KEY per line on standard input; prints one line per key
                with its components TAB-separated (one JSON object per line with
                --json). The first bad key stops the run: the lines of the keys before
                it are printed, then one error line naming the line number, exit 2.
  --quiet       bulk mode: no progress display (shown on stderr only when it is a
                terminal: the keys so far and keys/s)
A str value holding a newline (or, in bulk mode, a tab) cannot be shown in the
line-oriented text output: that is an error pointing to --json.

The schema may name the kinds ulid, uuid7 and geo ('lexikey help encode'):
  ulid     prints the canonical ULID (uppercase); --json adds \"ts\" (its RFC 3339 time)
  uuid7    prints the hyphenated UUID, --json adds \"ts\"; a UUID that is not a v7 is
           an error
  geo      prints LAT,LON: per axis the shortest decimal inside the code's cell (it
           encodes back to the same code); --json adds \"code\" and \"cell\" (min_lat,
           min_lon, max_lat, max_lon: the cell's exact bounds). --curve and --bits
           must be those the key was encoded with; a code outside the grid is an error.
e.g.
  lexikey decode --schema str,ulid event#g01563E3AB5D3D6764C61EFB99302BD5B  ->  str:event
                                                                                ulid:01ARZ3NDEKTSV4RRFFQ69G5FAV
  lexikey decode --bits 16 --schema str,geo places#u000000004B71B06D  ->  str:places
                                                                          geo:37.775,-122.42
  --salt-buckets N, --salt-mode M   the key is salted as by encode: the salt must be
                the key's own bucket; the components after it are printed (offsets
                in errors count from the start of the salted key)

Interop profiles (see 'lexikey help encode' for the component syntax):
  lexikey decode --format fdb-tuple [--json] KEY
  lexikey decode --format hbase-ordered|phoenix --schema TYPE[.desc],... [--salt-buckets N]
                 [--hbase-numeric current|legacy] [--json] KEY
  (--stdin: one KEY per line, as above)
KEY is hex (either case). Prints one component per line in the profile's syntax, so
the output encodes back to the same key, e.g.
  lexikey decode --format fdb-tuple 0268656c6c6f001505  ->  str:hello
                                                            int:5
  lexikey decode --format hbase-ordered --schema numeric,text 180234666f6f00  ->  numeric:1
                                                                                  text:foo
  lexikey decode --format phoenix --schema varchar,bigint.desc 61007ffffffffffffffe  ->  varchar:a
                                                                                         bigint.desc:1
fdb-tuple keys are self-describing (no --schema); a nested tuple prints as
nested:[ELEMENT, ...], which encode reads back. hbase-ordered and
phoenix keys need --schema: the struct's fields, or the primary-key columns in order,
plus --salt-buckets N for a salted Phoenix table. --hbase-numeric legacy reads numerics
of 100^351 and above as HBase 2.4.x and older wrote them (before HBASE-26566), giving the
number those versions read back; without it (current, HBase 2.5.0 and later) such a key
is an error naming the option. Fields after the end of the key are
null and print as a bare TYPE. Decoding is canonical: a key the Java side or the
FoundationDB bindings could not have written (unknown type code or header, integer
longer than needed, missing terminator or separator, wrong salt byte, trailing
bytes) is an error naming the byte.
--json: {\"components\":[{\"type\":\"int\",\"dir\":\"asc\",\"value\":5},...]}: null as null,
integers and finite floats as numbers, booleans as true/false, hbase numeric as a
string (its exact decimal), bytes as hex, dates and timestamps as RFC 3339, a nested
tuple as an array of components.
";

/// Help text.
pub(crate) const RANGE: &str = "\
Usage:
  lexikey range [--format F] [--width N] [--for raw|hbase|cql|rocksdb|etcd|redis|sql|cbt]
                [--table T] [--limit N] [--reversed] [--json] [--schema S] PREFIX_COMPONENT...
                [--ge C] [--gt C] [--le C] [--lt C] [--eq C] [--prefix STR]
                [--is-null TYPE?] [--not-null TYPE?]
  lexikey range ... PREFIX_COMPONENT... --bbox MINLAT,MINLON,MAXLAT,MAXLON [--max-ranges K]
                [--curve C] [--bits B]
  (both: [--salt-buckets N [--salt-mode fast|phoenix]] [--after CURSOR] [--last KEY]
         [--secret S])
  lexikey range --splits --salt-buckets N --for cbt|hbase [--format F] [--table T]
                [--store URL]

Computes the half-open key range [start, end) holding exactly the keys whose leading
components are the PREFIX_COMPONENTs and whose next component satisfies every
predicate (several predicates intersect; with none, every key under the prefix).
Components are written as in encode (TYPE[.desc]:VALUE); predicates are on values,
so --ge on a descending component becomes an upper key bound. A bound's TYPE is the
type of the keys it selects: --ge i32:1000000 selects i32 keys (tag i), not the i64
keys (tag l) of a field written with i64. --schema S (the key's fields, as in
encode --schema) makes a prefix component or predicate of another type than its
field an error naming both types:
  lexikey range --schema str,i64 str:population --ge i32:1000000
    ->  error: the ge predicate is an i32 (1000000), but field 2 of the schema is an i64
  lexikey range str:population --ge i64:1000000  ->  population#l80000000000F4240
                                                     population$

Options:
  --for D       where the range goes:
                raw (default): exactly two lines, the inclusive start and the exclusive
                  end (binary keys as lowercase hex), an unbounded side as an empty line
                hbase: scan 'T', {STARTROW => ..., STOPROW => ...} (Ruby-quoted)
                cql: SELECT * FROM T WHERE pk = ? AND ck >= ... AND ck < ...;
                rocksdb: iterate_lower_bound=... / iterate_upper_bound=...
                etcd: an etcdctl get line and the JSON gateway body (base64)
                redis: ZRANGE T [start (end BYLEX
                sql: SELECT k FROM T WHERE k >= ... AND k < ... ORDER BY k;
                cbt: cbt read T start=... end=... (or prefix=... when exact), a bash
                  line for Cloud Bigtable's cbt; a key holding a NUL byte cannot be
                  an argument: refused
  --table T     the table (hbase, cql, sql, cbt) or sorted-set key (redis); default t
  --store URL   cbt only: a bigtable://PROJECT/INSTANCE[?ns=TABLE] URL, whose project
                and instance the line names (-project, -instance; without it, cbt
                reads them from ~/.cbtrc) and whose table is the default of --table
  --limit N     at most N keys (hbase, cql, sql, etcd, redis, cbt)
  --reversed    largest key first, the same keys (hbase, cql, sql, etcd, redis, cbt)
  --column C, --partition-key P   the key column (cql, sql) and partition key (cql)
  --json        {\"start\":\"...\",\"end\":\"...\"} (null for an unbounded side; binary keys
                as lowercase hex), plus \"for\" and \"output\" (the rendered text) when
                --for is not raw
  --ge/--gt/--le/--lt/--eq C   predicates on the next component (repeatable)
  --prefix STR  the next component is an ascending str starting with STR; with --schema
                (or another predicate on a str beside it, e.g. --not-null str?.desc) a
                str of that direction, and on a nullable str? its values starting
                with STR, never a null
  --is-null TYPE?, --not-null TYPE?   the next component, nullable (TYPE? as in
                encode: i64?, str?.desc.nulls_last), is null / is not null (SQL's IS
                NULL, IS NOT NULL); a comparison (--ge i64?:5) never matches a null
  --format F, --width N        as in encode (F may also be an interop profile, below)
A query no key can match (e.g. --gt i64:9223372036854775807, or --ge i64:5 --lt i64:3)
is an error (exit 2). Components may be of the kinds ulid, uuid7 and geo ('lexikey
help encode'), with --curve and --bits for geo.

Geo boxes:
  --bbox MINLAT,MINLON,MAXLAT,MAXLON   the next component is an ascending geo code:
                the ranges of the cells the box touches (edges included; MINLON >
                MAXLON crosses the antimeridian), at most --max-ranges K (1 to 4096,
                default 8) after joining the ranges across the smallest gaps. Printed
                one after another in code order (raw: a pair of lines each). The over-
                coverage, the fraction of covered cells outside the box, is reported:
                one line on stderr (exit 0), or with --json {\"ranges\":[...],
                \"over_coverage\":F,\"covered_cells\":N,\"box_cells\":N}. Filter the rows by
                their point when it matters. No other predicate goes with --bbox.
e.g.
  lexikey range --bits 16 str:places --bbox 37.70,-122.52,37.82,-122.35 --max-ranges 2 --json
    ->  {\"ranges\":[...],\"over_coverage\":0.6734693877551021,\"covered_cells\":4312,\"box_cells\":1408}

Salting (hex, base64, decimal, binary):
  --salt-buckets N, --salt-mode M   keys salted as by encode (N from 1 to 255): the
                answer is one range per bucket, [salt(b) start, salt(b) end) for b = 0
                to N-1, bucket 0 first (with --bbox: every range of bucket 0, then of
                bucket 1, ...); raw prints a pair of lines per range, other --for
                targets one rendering each (--limit and --reversed apply per range),
                --json {\"ranges\":[{\"start\":...,\"end\":...},...]}. Scan them all and
                merge (lexikey::store::salt::merge_sorted); for the first n rows, n per bucket.
e.g.
  lexikey range --salt-buckets 2 str:events --ge i64:40  ->  00#events#l8000000000000028
                                                             00#events$
                                                             01#events#l8000000000000028
                                                             01#events$

Paging (read a query page by page: no row skipped or read twice, salted or not):
  --last KEY    instead of ranges, print the page cursor (one line, an opaque
                base64url token) of the page read up to the row whose key is KEY
                (as stored, with its salt; a binary key in hex): the first page,
                read from the query's ranges, or with --after CURSOR the page
                read from that cursor's ranges
  --after CURSOR  the ranges of the next page: each range from just after the last
                key the page cursor holds (one per bucket when salted), so the next
                page starts exactly after the last row read. CURSOR is a token of
                --last (or of Python's Schema.cursor) for the same layout (format,
                width, salt) and query; one for another layout or query, or a
                damaged one, is an error; a range read to its end is left out.
  --secret S    with --last: sign the cursor (HMAC-SHA256); with --after: accept
                only a cursor signed with S
e.g. a query read 100 rows a page:
  lexikey range str:events --ge i64:40                 the first page's range
  lexikey range str:events --ge i64:40 --last K1       its cursor T1 (K1: its last key)
  lexikey range str:events --ge i64:40 --after T1      the second page's range
  lexikey range str:events --ge i64:40 --after T1 --last K2   its cursor T2, and so on

Pre-split salted tables (hex, base64, decimal, binary):
  --splits      with --salt-buckets N: instead of a range, the command that creates
                table T (--table, or for cbt the table of --store) split at the salt
                of every bucket but the first (01#, 02#, ... in the text formats;
                bytes 01, 02, ... in binary), so each bucket of a salted 'lexikey
                alloc' table starts in a region (tablet) of its own:
                cbt: cbt [-project P -instance I] createtable T splits=...  (no
                  families: the Bigtable store adds its own when it opens the
                  table; a binary split holding a comma, bucket 44, is refused)
                hbase: create 'T', 'f', SPLITS => [...]  (each split in the
                  Bytes.toStringBinary form the shell's create reads)
                Run it before the first alloc: a new table is one region until the
                store splits it, and salting spreads writes only over regions.
e.g.
  lexikey range --splits --salt-buckets 4 --for cbt  ->  cbt createtable t splits='01#,02#,03#'
  lexikey range --splits --salt-buckets 3 --for hbase  ->  create 't', 'f', SPLITS => ['01#', '02#']

Interop profiles (binary keys: lowercase hex in raw output):
  lexikey range --format fdb-tuple|hbase-ordered|phoenix [--salt-buckets N] [--for D ...]
                [--json] PREFIX_COMPONENT... [--ge C] [--gt C] [--le C] [--lt C] [--eq C]
                [--prefix STR]
Components and predicates are in the profile's syntax ('lexikey help encode'). The
bounds are exact: no key outside the answer lies inside the range.
  fdb-tuple: with no predicate, FoundationDB's Subspace(prefix).range():
    [prefix+00, prefix+FF), every tuple longer than the prefix (not the prefix tuple
    itself). Predicates compare elements in the tuple layer's order, which orders
    types first (null < bytes < str < int < f32 < f64 < bool < uuid < versionstamp):
    --ge int:5 also matches every f32, f64, bool... element. --eq e gives
    [prefix+pack(e), prefix+pack(e)+FF): the tuple (prefix..., e) and every tuple
    extending it.
  hbase-ordered, phoenix: with no predicate, every row under the prefix, including
    the row whose remaining fields are all null (written as the prefix alone). The
    predicates are on the next field: they must all have its TYPE[.desc].
    Comparisons and --prefix never match a null (as in SQL); --eq with a bare TYPE
    matches the rows where the next field is null. --prefix STR: an ascending text
    (hbase-ordered) or varchar (phoenix) starting with STR. A DESC varbinary takes
    --eq only (Phoenix's trailing FF breaks its order). Left out: with hbase-ordered,
    the row written as the prefix alone when the range needs a descending null there
    (a prefix ending in a .desc null, --eq KIND.desc).
  --hbase-numeric current|legacy, --round  as for encode: hbase-ordered numerics of
    100^351 and above as HBase 2.4.x and older wrote them (legacy); phoenix decimals of
    more than 38 digits rounded as Phoenix stores them (--round)
  --salt-buckets N  phoenix: the salt byte hashes the whole key, so the answer is one
    range per bucket, [b start, b end) for b = 00 to N-1: raw prints a pair of lines
    per bucket (bucket 00 first), other --for targets one rendering per bucket
    (--limit and --reversed apply per bucket), --json {\"ranges\":[{\"start\":...,
    \"end\":...},...]}.
e.g.
  lexikey range --format fdb-tuple str:users  ->  0275736572730000
                                                  02757365727300ff
  lexikey range --format fdb-tuple str:users --ge int:18 --lt int:65  ->  027573657273001512
                                                                          027573657273001541
  lexikey range --format hbase-ordered text:eu --ge int64.desc:100  ->  34657500d3
                                                                        34657500d37fffffffffffff9c
  lexikey range --format phoenix --salt-buckets 2 varchar:us  ->  007573
                                                                  00757301
                                                                  017573
                                                                  01757301
";

/// Help text.
pub(crate) const REVERSE: &str = "\
Usage:
  lexikey reverse [--format F] [--width N] N

Prints i64::MAX - N (0 <= N <= 9223372036854775807), the reverse number existing
HBase tables hold for newest-first order; reversing is its own inverse:
  lexikey reverse 1                   ->  9223372036854775806
  lexikey reverse 9223372036854775806 ->  1
With --format F, prints the i64 key of i64::MAX - N in format F instead (binary as
lowercase hex; --width N for a narrower decimal width):
  lexikey reverse --format hex 1      ->  lFFFFFFFFFFFFFFFE
";

/// Help text.
pub(crate) const ALLOC: &str = "\
Usage:
  lexikey alloc --store URL --table NAME [--count N] [--format F] [--guard] [--stats]
                [--salt-buckets N [--salt-mode M]] [--max-key-len N] [--quiet] [VALUE...]

Inserts rows into the upside-down table NAME of the store at URL, each under a new
ID one below the newest row's (the first row gets 18446744073709551615), and prints
each allocated ID as a decimal number, one per line, as soon as it is allocated.
One row per VALUE; with --count N, N rows that each store the single VALUE given
(empty when none); with neither, one row with an empty value. IDs come from a
compare-and-set loop (read the newest ID, put-if-absent ID-1, retry when another
client won), so concurrent 'lexikey alloc' processes never get the same ID.

Row ID of table NAME is the key (str:NAME, u64:ID) in format F, e.g. in hex
  NAME#uFFFFFFFFFFFFFFFF
so the newest row is the first key of the table: 'lexikey scan' reads it first.

Options:
  --store URL   memory:, redb:PATH (embedded, the default build), rocksdb:PATH,
                slatedb:PATH, redis://HOST:PORT, postgres://USER@HOST:PORT/DB,
                etcd://HOST:PORT[,...], bigtable://PROJECT/INSTANCE (Cloud Bigtable
                with Application Default Credentials, or the emulator named by
                ?emulator=HOST:PORT or BIGTABLE_EMULATOR_HOST; the table, ?ns=,
                default lexikey, and its column family, ?family=, default f, are
                created when missing) (server stores need the cli built with feature
                redis, postgres, etcd, rocksdb, slatedb, bigtable or all-servers); TLS: rediss://,
                postgres://…?sslmode=verify-full, etcd+https:// (see docs/stores.md,
                'Production stores'). Without --store, the URL in the LEXIKEY_STORE
                variable (keeps a password out of 'ps'). Passwords never appear in
                messages (shown as ***). One process at a time writes a slatedb:
                store; others wait for it (wait_ms=, default 30000) and then fail.
  --format F    key format: hex (default), base64, decimal, binary; every client of
                a table must use the same
  --guard       the reuse guard: a low-water mark makes IDs strictly decreasing even
                when the newest row is deleted (one more round trip per ID); every
                client of a table should use it
  --salt-buckets N  spread the rows over N buckets (1 to 255) instead of writing every
                new row next to the last one (the hot spot of an upside-down table):
                row ID is the key with its bucket in front, e.g. 0A#NAME#u...; the
                bucket is a hash of the unsalted key, so IDs, their order and every
                other rule stay as without salt. Each insert reads the first key of
                every bucket (one round trip on redis, postgres, etcd). The first
                insert records N in the key NAME#!salt; opening the table with
                another N (or none) is an error. 'lexikey scan' needs the same option
  --salt-mode M the salt's hash: fast (default) or phoenix (Apache Phoenix's salt
                byte); recorded with N
                With --salt-buckets on HBase and Bigtable, create the table pre-split
                at the buckets first, or its writes stay in one region until the store
                splits it:
                'lexikey range --splits --salt-buckets N --for cbt|hbase --table T'
                prints the command (cbt createtable T splits=01#,...; hbase create
                'T', 'f', SPLITS => [...])
  --stats       print one summary line on stderr at the end (rows, attempts,
                conflicts, store errors, burned IDs: IDs made unusable after a write
                whose outcome was unknown)
  --max-key-len N  refuse a table whose row keys are longer than N bytes (default:
                65535 for slatedb: stores, which also refuse an empty key, SlateDB's
                key rule; 4096 for bigtable:// stores, Cloud Bigtable's row key limit,
                which the emulator does not enforce; no limit for the others)
  --quiet       no progress bar (shown on stderr only when it is a terminal: IDs so
                far, IDs/s and the time left)
If an allocation fails, the IDs allocated before it are printed, then one error line,
exit code 2.

Several processes may allocate in one redb: file at once (their writes queue); a
process that opened the file alone (?processes=one, or ?fsync=false) makes the others
wait for it, up to ?lock_timeout_ms=N (default 10000).
";

/// Help text.
pub(crate) const SCAN: &str = "\
Usage:
  lexikey scan --store URL --table NAME [--limit N] [--format F]
               [--salt-buckets N [--salt-mode M]] [--quiet] [--after TOKEN] [--secret S]

Prints the rows of the upside-down table NAME (written by 'lexikey alloc'), newest
(smallest ID) first, one per line: the ID in decimal, a TAB, the value. The scan is
a plain forward scan of the table's key range (with --salt-buckets N: one per
bucket, merged by ID); with --limit N it stops after N rows (default: every row).

Paging: when --limit N stopped the scan and rows follow, a last line 'next: TOKEN'
goes to stderr; '--after TOKEN --limit N' reads the next page, starting exactly after
the last row printed (in every bucket of a salted table), whatever was inserted or
deleted meanwhile. TOKEN is an opaque base64url cursor holding the table's layout
and the last key read; one for another table or layout, or a damaged one, is an
error. With --secret S the token is signed (HMAC-SHA256) and only tokens signed with
S are accepted, so a client cannot forge one.

Values are printed as text: valid UTF-8 as it is, except that a backslash is
written \\\\, tab \\t, newline \\n, carriage return \\r, and every other control
character and every byte that is not valid UTF-8 as \\xNN. So each row is one line.
--store, --format, --salt-buckets and --salt-mode as in 'lexikey alloc'; without
--salt-buckets a salted table is read with the salt its record NAME#!salt names, and
a salt given must be that one. Reading creates nothing: a missing file, PostgreSQL
table, Bigtable table (ns=) or column family (family=) is an error naming it (for
Bigtable, with the instance's tables). The pre-split of a salted table (one region
per bucket): 'lexikey range --splits --salt-buckets N --for cbt|hbase --table T'.
The table is read 10,000 rows at a time;
on a terminal, stderr shows the rows so far and rows/s (--quiet: not).
";

/// Help text.
pub(crate) const DEMO: &str = "\
Usage:
  lexikey demo [--store URL]

Runs the tour of lexikey on a real store and prints what it does:
  1. a city index (population, city) and the range query population >= 1,000,000,
     with its bounds and the hbase shell command;
  2. an upside-down comments table filled through the decreasing-ID allocator,
     with its newest row (a one-row forward scan) and oldest row (a get);
  3. a queue (queue id, seq) read with an exclusive upper bound, so the read never
     walks into the next queue;
  4. the comments table salted over 8 buckets (newest first and the constant
     oldest key kept), with a chart of where its first 10,000 rows are written.
Without --store it uses a new embedded redb file in the temporary directory,
removed at the end (no server needed). With --store URL (as in 'lexikey alloc') the
data stays in that store; running the demo again adds comments and reuses the rest.
";

/// Help text of `completions`.
pub(crate) const COMPLETIONS: &str = "\
Usage:
  lexikey completions bash|zsh|fish|powershell|elvish

Prints the completion script of the shell: subcommands, options and the values of
--format, --for, --salt-mode and --curve. Install it where the shell looks, e.g.
  lexikey completions bash > ~/.local/share/bash-completion/completions/lexikey
  lexikey completions zsh > ~/.zfunc/_lexikey      (with fpath+=~/.zfunc in ~/.zshrc)
  lexikey completions fish > ~/.config/fish/completions/lexikey.fish
";

/// Help text of `man`.
pub(crate) const MAN: &str = "\
Usage:
  lexikey man [COMMAND]

Prints the man page (roff) of lexikey, or of one subcommand (lexikey-encode(1) ...),
with the component syntax and the type list, e.g.
  lexikey man > ~/.local/share/man/man1/lexikey.1 && man lexikey
  for c in encode decode range reverse alloc scan demo completions man; do
    lexikey man $c > ~/.local/share/man/man1/lexikey-$c.1; done
";

/// The top-level help text.
pub(crate) const TOP: &str = "\
lexikey: sortable row keys for ordered key-value stores

Usage:
  lexikey encode [--format F] [--width N] [--json] COMPONENT...
  lexikey encode --schema TYPE[.desc],... --stdin [--format F] [--width N] [--json]
  lexikey decode [--format F] [--schema TYPE[.desc],...] [--width N] [--json] KEY
  lexikey decode --stdin [--format F] [--schema ...] [--width N] [--json]
  lexikey range [--format F] [--width N] [--for raw|hbase|cql|rocksdb|etcd|redis|sql|cbt]
                [--table T] [--limit N] [--reversed] [--json] PREFIX_COMPONENT...
                [--ge C] [--gt C] [--le C] [--lt C] [--eq C] [--prefix STR]
                [--is-null TYPE?] [--not-null TYPE?]
  lexikey range ... PREFIX_COMPONENT... --bbox MINLAT,MINLON,MAXLAT,MAXLON [--max-ranges K]
  lexikey reverse [--format F] [--width N] N
  lexikey alloc --store URL --table NAME [--count N] [--format F] [--guard] [--stats]
                [--salt-buckets N] [--quiet] [VALUE...]
  lexikey scan --store URL --table NAME [--limit N] [--format F] [--salt-buckets N]
               [--quiet]
  lexikey demo [--store URL]
  lexikey lint --schema TYPE[.desc],... [--format F] [--regions N] [--json] [--svg FILE] FILE
  lexikey plan --schema TYPE[.desc],... [--format F] --regions N --for hbase|cbt|phoenix
               [--table T] [--input csv|jsonl] FILE
  lexikey schema diff OLD NEW [--json] [--format F] [--old-format F] [--new-format F]
  lexikey help [COMMAND] | lexikey COMMAND --help | lexikey --version
  lexikey completions bash|zsh|fish|powershell|elvish | lexikey man [COMMAND]

COMPONENT is TYPE[.desc]:VALUE; TYPE is one of str, i64, u64, i32, u32, f64, f32,
bool, bytes (hex), ts (RFC 3339, or 1714564800s / ms / us / ns; bare: milliseconds),
uuid, dec (a decimal of any size, exact), or ulid, uuid7 (stored as
uuid) and geo (LAT,LON, stored as a u64 cell code; grid: --curve hilbert|morton,
--bits 1-32); everything after the first ':' is the value, verbatim. F is hex
(default), base64, decimal or binary (printed as lowercase hex). Arguments that
begin with '-' (-5, -9999999999999999998) are positionals unless shaped like an
option (-x, --name); after '--' every argument is a positional. Every error prints one line on stderr and exits with code 2.
encode, decode and range take --salt-buckets N [--salt-mode fast|phoenix] for keys
salted in front (N from 1 to 255; range prints one range per bucket); alloc and scan
take them for an upside-down table whose rows are spread over N buckets.

For keys shared with Java and FoundationDB code, encode, decode and range also take
--format fdb-tuple, hbase-ordered or phoenix (keys as lowercase hex, components in
the profile's own types; --salt-buckets N for a salted Phoenix table): see
'lexikey help encode'.
";

/// Help text.
pub(crate) const LINT: &str = "\
Usage:
  lexikey lint --schema TYPE[.desc],... [--format F] [--regions N] [--json] [--svg FILE]
               [--input csv|jsonl] FILE
  (also: [--width N] [--salt-buckets N [--salt-mode M]], as in 'lexikey encode')

Reads sample rows from FILE (rows in insertion order; - for standard input), makes
each row's key, and reports, before the table exists:
  hot spot   whether recent writes crowd into one region: the last quarter of the
             rows (the recent writes) is assigned to N regions (--regions, default 16)
             cut at the key quantiles of the rows before them; a key that rises or
             falls with insertion order (time, sequences, decreasing IDs) sends every
             recent write to one region. Flagged when the busiest region takes more
             than half-way between an even share (1/N) and all of them, with the fix:
             the salt bucket count (--salt-buckets) that spreads them, measured on
             the same sample, or a hashed or reversed leading component.
  skew       the leading values (first column) with the most rows, with shares.
  size       key length p50/p99/max in bytes against each store's limit (HBase row
             key 32,767; Bigtable 4,096; DynamoDB partition key 2,048, sort key
             1,024; Cassandra 65,535; etcd's default request limit 1,572,864),
             naming the first rows over each.
With a terminal bar chart of the recent writes per region before and after the fix.

Options:
  --json        print one JSON object: rows, regions, window_rows, hot_spot,
                direction (rising, falling or null), busiest_region_share (0 to 1),
                writes_per_region, suggested_salt_buckets (or null),
                share_after_salting, writes_per_region_after_salting, skew
                ([{prefix, rows, share}]), key_bytes ({p50, p99, max}), limits
                ([{store, limit, rows_over, first_rows_over}])
  --svg FILE    also write the chart as SVG to FILE
  --regions N   regions of the table (1 to 65536, default 16)
  --input csv|jsonl   how FILE is written (default: jsonl when FILE's name ends in
                .jsonl or .ndjson, else csv; standard input is csv unless given):
                csv: one column per --schema field in the field's text syntax (what
                  'encode --stdin' takes), no header line, RFC 4180 quoting
                jsonl: one JSON array a line, one value per field in the schema's
                  order, e.g. [\"events\", 1700000000]: a string is the field's text
                  syntax (a timestamp as \"2024-05-01T10:00:00Z\"), a number its
                  literal as written, true and false themselves; an object (the
                  schema's fields have no names), null and nested arrays are errors
                The same rows as CSV and as JSON lines give the same report.
Then 'lexikey plan' prints the command that creates the table split at the sample.
";

/// Help text.
pub(crate) const PLAN: &str = "\
Usage:
  lexikey plan --schema TYPE[.desc],... [--format F] --regions N --for hbase|cbt|phoenix
               [--table T] FILE
  (also: [--width N] [--salt-buckets N [--salt-mode M]], as in 'lexikey encode')

Reads sample rows (CSV or JSON lines, --input) as 'lexikey lint' does and prints the one command that creates
table T (default t) split into N regions at the sample's key quantiles: N-1 split
points, sorted and distinct, each region holding about 1/N of the sample's rows.
  --for hbase    create 'T', 'cf', SPLITS => [...]  (hbase shell, family cf; each split a Ruby
                 literal of its Bytes.toStringBinary form, as 'lexikey range --splits')
  --for cbt      cbt createtable T splits=...
  --for phoenix  CREATE TABLE T (...) SPLIT ON (...): with --format phoenix, the
                 schema's columns and the leading column's values where they change
                 at the quantiles; with a text format, one VARCHAR key column split
                 at the keys.
A sample with fewer than N distinct keys (Phoenix: leading values) is an error.
";

/// Help text.
pub(crate) const SCHEMA: &str = "\
Usage:
  lexikey schema diff OLD NEW [--json]
  (also: [--format F] [--old-format F] [--new-format F] [--width N]
   [--salt-buckets N] [--old-salt-buckets N] [--new-salt-buckets N]
   [--salt-mode M] [--old-salt-mode M] [--new-salt-mode M])

OLD and NEW are schemas as --schema takes them (TYPE[.desc],... in the format's
syntax). --format, --width, --salt-buckets and --salt-mode apply to both layouts;
--old-* and --new-* set one side (and win over the shared option).

Says whether every key the OLD layout can write reads back under the NEW one as
the same values, sorting the same: the changes between the two (format, salt,
width, a column's type or direction, columns appended or dropped), and the
verdict, checked by writing keys with the OLD layout for the edge values of
every column's type (and mixed rows) and reading them with the NEW one. An
appended trailing column, or a widened type whose keys' bytes match, is
compatible; a changed type, direction, format or salt is breaking, with a
witness: an old key the new layout cannot read or reads differently, and two
rows whose order the new layout changes. A breaking change comes with a
migration plan: a version tag that leads every new key, the ranges to read
from both layouts during the move and the ranges to backfill.

Options:
  --json        print one JSON object: compatible, reason, changes, keys_checked,
                decode_witness ({values, key, new_reading} or null),
                order_witness ({first, second, new_order} or null), migration
                ({tag, new_prefix, read_new, read_old, backfill}, ranges as
                {start, end} of escaped keys, null for an open end; or null)
The exit status is 0 whichever the verdict (2 for bad arguments).
";
