package conformance

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The argument generator: valid argument objects for a canonical schema
// (best effort: the validator has the last word), and single-point
// mutations of them. Values are decoded JSON (map[string]any, []any,
// json.Number, string, bool, nil); numbers stay exact as json.Number.

const maxGenDepth = 4

// site is one place of a generated value, with the schema node it was
// generated from: a mutation changes exactly one site.
type site struct {
	path []string       // object keys and array indexes from the root
	node map[string]any // the schema node, $ref resolved
	typ  string         // the JSON type generated: null, boolean, integer, number, string, array, object, any, enum, const
}

type gen struct {
	r     *rand.Rand
	root  map[string]any
	sites []site
}

// resolve follows $ref (local "#/$defs/Name" and "#") and maps the boolean
// schema true to {}. It returns nil for false.
func (g *gen) resolve(n any) map[string]any {
	for i := 0; i < 16; i++ {
		switch x := n.(type) {
		case bool:
			if x {
				return map[string]any{}
			}
			return nil
		case map[string]any:
			ref, ok := x["$ref"].(string)
			if !ok {
				return x
			}
			n = g.lookup(ref)
		default:
			return map[string]any{}
		}
	}
	return map[string]any{}
}

func (g *gen) lookup(ref string) any {
	if ref == "#" {
		return g.root
	}
	var cur any = g.root
	for _, tok := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		m, _ := cur.(map[string]any)
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		cur = m[tok]
	}
	return cur
}

func typesOf(node map[string]any) []string {
	switch t := node["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func clonePath(p []string, more ...string) []string {
	return append(append([]string(nil), p...), more...)
}

// value generates a value valid for schema n.
func (g *gen) value(n any, path []string, depth int) any {
	node := g.resolve(n)
	if node == nil {
		return nil
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if bs, ok := node[k].([]any); ok && len(bs) > 0 {
			b := bs[g.r.IntN(len(bs))]
			if depth >= maxGenDepth {
				for _, c := range bs {
					if slices.Contains(typesOf(g.resolve(c)), "null") {
						b = c
					}
				}
			}
			return g.value(b, path, depth)
		}
	}
	if c, ok := node["const"]; ok {
		g.sites = append(g.sites, site{path, node, "const"})
		return c
	}
	if e, ok := node["enum"].([]any); ok && len(e) > 0 {
		g.sites = append(g.sites, site{path, node, "enum"})
		return e[g.r.IntN(len(e))]
	}
	types := typesOf(node)
	if len(types) == 0 {
		g.sites = append(g.sites, site{path, node, "any"})
		return g.anyValue(depth)
	}
	t := types[g.r.IntN(len(types))]
	if slices.Contains(types, "null") && (depth >= maxGenDepth || g.r.IntN(4) == 0) {
		t = "null"
	} else if t == "null" && len(types) > 1 {
		t = types[0]
	}
	g.sites = append(g.sites, site{path, node, t})
	switch t {
	case "null":
		return nil
	case "boolean":
		return g.r.IntN(2) == 0
	case "integer":
		return g.number(node, true)
	case "number":
		return g.number(node, false)
	case "string":
		return g.str(node)
	case "array":
		return g.array(node, path, depth)
	case "object":
		return g.object(node, path, depth)
	}
	return nil
}

func (g *gen) anyValue(depth int) any {
	choices := []func() any{
		func() any { return nil },
		func() any { return true },
		func() any { return json.Number("3") },
		func() any { return json.Number("-2.5") },
		func() any { return json.Number("12345678901234567890123") },
		func() any { return "text" },
		func() any { return []any{json.Number("1"), "a", nil} },
		func() any { return map[string]any{"k": []any{false}, "n": json.Number("1e3")} },
	}
	if depth >= maxGenDepth {
		choices = choices[:6]
	}
	return choices[g.r.IntN(len(choices))]()
}

func ratOf(v any) *big.Rat {
	n, ok := v.(json.Number)
	if !ok {
		return nil
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return nil
	}
	return r
}

// numConstraints are a number node's bounds, exact.
type numConstraints struct {
	min, max, exMin, exMax, mult *big.Rat
	integer                      bool
}

func numbersOf(node map[string]any, integer bool) numConstraints {
	return numConstraints{ratOf(node["minimum"]), ratOf(node["maximum"]), ratOf(node["exclusiveMinimum"]),
		ratOf(node["exclusiveMaximum"]), ratOf(node["multipleOf"]), integer}
}

func (c numConstraints) ok(x *big.Rat) bool {
	if c.integer && !x.IsInt() {
		return false
	}
	if c.min != nil && x.Cmp(c.min) < 0 || c.max != nil && x.Cmp(c.max) > 0 {
		return false
	}
	if c.exMin != nil && x.Cmp(c.exMin) <= 0 || c.exMax != nil && x.Cmp(c.exMax) >= 0 {
		return false
	}
	if c.mult != nil && c.mult.Sign() != 0 && !new(big.Rat).Quo(x, c.mult).IsInt() {
		return false
	}
	return true
}

func rat(s string) *big.Rat { r, _ := new(big.Rat).SetString(s); return r }

func add(a, b *big.Rat) *big.Rat { return new(big.Rat).Add(a, b) }

// numText writes x as JSON: integers plainly, others as exact decimals
// when they terminate (they do for every candidate made here).
func numText(x *big.Rat) json.Number {
	if x.IsInt() {
		return json.Number(x.Num().String())
	}
	s := x.FloatString(30)
	s = strings.TrimRight(s, "0")
	return json.Number(strings.TrimSuffix(s, "."))
}

func (g *gen) number(node map[string]any, integer bool) json.Number {
	c := numbersOf(node, integer)
	one, half := rat("1"), rat("1/2")
	var cands []*big.Rat
	for _, b := range []*big.Rat{c.min, c.max, c.exMin, c.exMax} {
		if b == nil {
			continue
		}
		cands = append(cands, b, add(b, one), add(b, new(big.Rat).Neg(one)), add(b, half), add(b, new(big.Rat).Neg(half)))
		if c.mult != nil {
			cands = append(cands, add(b, c.mult), add(b, new(big.Rat).Neg(c.mult)))
		}
	}
	cands = append(cands, rat("0"), rat("1"), rat("-1"), rat("42"), rat("3.25"), rat("-7.5"),
		new(big.Rat).SetInt64(int64(g.r.IntN(2001)-1000)))
	if c.mult != nil {
		for i := 0; i < 6; i++ {
			cands = append(cands, new(big.Rat).Mul(c.mult, new(big.Rat).SetInt64(int64(g.r.IntN(200)-50))))
		}
	}
	lo, hi := c.min, c.max
	if lo == nil {
		lo = c.exMin
	}
	if hi == nil {
		hi = c.exMax
	}
	if lo != nil && hi != nil {
		for i := 0; i < 4; i++ {
			f := new(big.Rat).SetFrac64(int64(g.r.IntN(1000)), 1000)
			x := add(lo, new(big.Rat).Mul(f, new(big.Rat).Sub(hi, lo)))
			if integer {
				x = new(big.Rat).SetInt(new(big.Int).Quo(x.Num(), x.Denom()))
			}
			cands = append(cands, x)
		}
	}
	var good []*big.Rat
	for _, x := range cands {
		if c.ok(x) {
			good = append(good, x)
		}
	}
	if len(good) == 0 {
		return "0"
	}
	return numText(good[g.r.IntN(len(good))])
}

func intOf(v any) (int, bool) {
	r := ratOf(v)
	if r == nil || !r.IsInt() {
		return 0, false
	}
	return int(r.Num().Int64()), true
}

var genRunes = []rune("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 _-.éß日本😀\"\\/")

func (g *gen) runes(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteRune(genRunes[g.r.IntN(len(genRunes))])
	}
	return b.String()
}

func (g *gen) str(node map[string]any) string {
	if node["contentEncoding"] == "base64" {
		buf := make([]byte, g.r.IntN(12))
		for i := range buf {
			buf[i] = byte(g.r.IntN(256))
		}
		return base64.StdEncoding.EncodeToString(buf)
	}
	if f, ok := node["format"].(string); ok {
		if s, ok := g.format(f); ok {
			return s
		}
	}
	minL, _ := intOf(node["minLength"])
	maxL, hasMax := intOf(node["maxLength"])
	if !hasMax {
		maxL = minL + 8
	}
	if maxL > minL+12 {
		maxL = minL + 12
	}
	if p, ok := node["pattern"].(string); ok {
		for i := 0; i < 30; i++ {
			s, ok := regexString(g.r, p)
			if !ok {
				break
			}
			if n := utf8.RuneCountInString(s); n >= minL && (!hasMax || n <= maxL) {
				return s
			}
		}
	}
	return g.runes(minL + g.r.IntN(maxL-minL+1))
}

func (g *gen) format(f string) (string, bool) {
	pick := func(xs ...string) string { return xs[g.r.IntN(len(xs))] }
	n := g.r.IntN(1000)
	switch f {
	case "date-time":
		return pick(fmt.Sprintf("2026-%02d-%02dT%02d:%02d:%02dZ", 1+n%12, 1+n%28, n%24, n%60, n%60),
			"2024-02-29T23:59:59.123456789+05:30", "1999-12-31T00:00:00-08:00", "2026-09-01T10:00:00.5Z"), true
	case "date":
		return pick(fmt.Sprintf("2026-%02d-%02d", 1+n%12, 1+n%28), "2024-02-29", "0001-01-01"), true
	case "time":
		return pick(fmt.Sprintf("%02d:%02d:%02dZ", n%24, n%60, n%60), "23:59:59.999+01:00", "00:00:00-12:00"), true
	case "email":
		return pick(fmt.Sprintf("user%d@example.com", n), "first.last+tag@sub.example.org"), true
	case "uuid":
		return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", g.r.Uint32(), g.r.IntN(1<<16), g.r.IntN(1<<12), g.r.IntN(1<<12), g.r.Uint64()&(1<<48-1)), true
	case "ipv4":
		return fmt.Sprintf("%d.%d.%d.%d", 1+g.r.IntN(254), g.r.IntN(256), g.r.IntN(256), 1+g.r.IntN(254)), true
	case "ipv6":
		return pick("2001:db8::1", "::1", fmt.Sprintf("fe80::%x:%x", g.r.IntN(1<<16), g.r.IntN(1<<16)), "2001:0db8:0000:0000:0000:ff00:0042:8329"), true
	case "uri":
		return pick(fmt.Sprintf("https://example.com/p/%d?q=%d#f", n, n), "mailto:a@example.com", "urn:isbn:0451450523"), true
	case "hostname":
		return pick(fmt.Sprintf("host%d.example.com", n), "localhost", "a-b.c"), true
	}
	return "", false
}

func (g *gen) array(node map[string]any, path []string, depth int) []any {
	minI, _ := intOf(node["minItems"])
	maxI, hasMax := intOf(node["maxItems"])
	if !hasMax || maxI > minI+3 {
		maxI = minI + 3
	}
	n := minI + g.r.IntN(maxI-minI+1)
	if depth >= maxGenDepth {
		n = minI
	}
	unique, _ := node["uniqueItems"].(bool)
	out := []any{}
	seen := map[string]bool{}
	for i := 0; len(out) < n && i < 10*n+10; i++ {
		mark := len(g.sites)
		v := g.value(node["items"], clonePath(path, fmt.Sprint(len(out))), depth+1)
		key := string(canonJSON(v))
		if unique && seen[key] {
			g.sites = g.sites[:mark]
			continue
		}
		seen[key] = true
		out = append(out, v)
	}
	return out
}

// mapKeys are the keys generated for maps: words, numbers (integer-keyed
// Go maps, at and beyond the 64-bit range and in non-canonical forms), and
// text that needs escaping.
var mapKeys = []string{"alpha", "b", "7", "-12", "0", "key with space", "ключ", "x/y~z", "", "01", "3.5",
	"+1", "-0", "007", "9223372036854775807", "-9223372036854775808", "9223372036854775808"}

// keysFor returns the keys to draw from for an object node: with a
// propertyNames pattern, mostly the keys that match it (and sometimes any
// key, for negative cases).
func (g *gen) keysFor(node map[string]any) []string {
	pn, _ := node["propertyNames"].(map[string]any)
	p, _ := pn["pattern"].(string)
	if p == "" || g.r.IntN(8) == 0 {
		return mapKeys
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return mapKeys
	}
	var out []string
	for _, k := range mapKeys {
		if re.MatchString(k) {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return mapKeys
	}
	return out
}

func (g *gen) object(node map[string]any, path []string, depth int) map[string]any {
	out := map[string]any{}
	props, _ := node["properties"].(map[string]any)
	required := map[string]bool{}
	if rs, ok := node["required"].([]any); ok {
		for _, r := range rs {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	for _, name := range sortedKeys(props) {
		if required[name] || depth < maxGenDepth && g.r.IntN(2) == 0 {
			out[name] = g.value(props[name], clonePath(path, name), depth+1)
		}
	}
	ap, hasAP := node["additionalProperties"]
	if b, ok := ap.(bool); ok && !b {
		return out
	}
	if !hasAP && len(props) > 0 {
		return out
	}
	minP, _ := intOf(node["minProperties"])
	maxP, hasMax := intOf(node["maxProperties"])
	if !hasMax || maxP > minP+3 {
		maxP = minP + 3
	}
	want := minP + g.r.IntN(maxP-minP+1)
	if depth >= maxGenDepth {
		want = minP
	}
	keys := g.keysFor(node)
	for i := 0; len(out) < want && i < 40; i++ {
		k := keys[g.r.IntN(len(keys))]
		if _, dup := out[k]; dup {
			continue
		}
		if _, isProp := props[k]; isProp {
			continue
		}
		var sub any = true
		if hasAP {
			sub = ap
		}
		out[k] = g.value(sub, clonePath(path, k), depth+1)
	}
	return out
}

func canonJSON(v any) []byte {
	data, _ := json.Marshal(normalize(v, false))
	return data
}

// deepCopy copies a decoded JSON value.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// mutation is one changed copy of a valid value.
type mutation struct {
	kind  string // what was done, e.g. "null", "wrong_type", "drop_key", "edge_number"
	site  site
	value any
}

// set replaces the value at path in root (a deep copy) with v; a nil
// path replaces the root. It reports whether the path exists.
func set(root any, path []string, f func(old any) (any, bool)) (any, bool) {
	if len(path) == 0 {
		return f(root)
	}
	switch x := root.(type) {
	case map[string]any:
		old, ok := x[path[0]]
		if !ok {
			return root, false
		}
		nv, ok := set(old, path[1:], f)
		if !ok {
			return root, false
		}
		x[path[0]] = nv
		return x, true
	case []any:
		var i int
		if _, err := fmt.Sscan(path[0], &i); err != nil || i < 0 || i >= len(x) {
			return root, false
		}
		nv, ok := set(x[i], path[1:], f)
		if !ok {
			return root, false
		}
		x[i] = nv
		return x, true
	}
	return root, false
}

// badFormats are strings near the edge of each format.
var badFormats = map[string][]string{
	"date-time": {"2026-09-01", "2026-09-01T10:00:00", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-09-01T24:00:00Z",
		"2026-12-31T23:59:60Z", "2026-09-01t10:00:00z", "2026-09-01 10:00:00Z", "2026-09-01T10:00:00+0530", "2026-09-01T10:00Z", "not a date",
		"2026-09-01T1:00:00Z", "2026-09-01T10:00:00,5Z", "2026-09-01T10:00:00+24:00", "2026-09-01T10:00:00.Z"},
	"date": {"2026-9-1", "2026-02-30", "2026-13-01", "20260901", "2026-09-01T00:00:00Z", "2023-02-29"},
	"time": {"10:00:00", "24:00:00Z", "10:00Z", "23:59:60Z", "10:00:00.Z", "1:00:00Z", "10:00:00+25:00",
		"22:59:60Z", "23:59:60+01:00", "00:59:60+01:00", "15:59:60-08:00", "12:00:60Z"},
	"email": {"user@", "@example.com", "plainaddress", "a@b@c.com", "user@[127.0.0.1]", "\"quoted\"@example.com", "a..b@example.com", "user@-example.com",
		"jöhn@example.com", "user@[IPv6:2001:db8::1]", "user@[::1]", "user@localhost", "user@example.com.", "a b@example.com"},
	"uuid":     {"01234567-89ab-cdef-0123-456789abcdeg", "0123456789abcdef0123456789abcdef", "01234567-89AB-CDEF-0123-456789ABCDEF", "{01234567-89ab-cdef-0123-456789abcdef}", "01234567-89ab-cdef-0123-456789abcde"},
	"ipv4":     {"256.1.1.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", "::ffff:1.2.3.4", " 1.2.3.4"},
	"ipv6":     {"1:2:3:4:5:6:7:8:9", "fe80::1%eth0", "::ffff:1.2.3.4", "12345::", "1.2.3.4", "::g"},
	"uri":      {"/relative/path", "example.com", "http://exa mple.com", "://no-scheme", "https://example.com/%zz", "1http://x"},
	"hostname": {"-leading.example.com", "example.com.", "a..b", strings.Repeat("a", 64) + ".com", "under_score.com", "xn--nxasmq6b.com", ""},
}

// edgeNumbers are number texts at and beyond the limits of Go's numeric
// types and of JSON Schema's integer.
var edgeNumbers = []string{"2.5", "2.0", "1e2", "-0", "0.1", "9007199254740993", "9223372036854775807", "9223372036854775808",
	"-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616", "3.4028235e38", "3.5e38",
	"1e39", "-1e39", "1e308", "1e309", "1e-400", "1E400", "128", "-129", "256", "-1", "65536", "4294967296"}

// mutate returns single-point mutations of v, which was generated with
// sites.
func (g *gen) mutate(v any, sites []site, n int) []mutation {
	var out []mutation
	for tries := 0; len(out) < n && tries < 4*n; tries++ {
		s := sites[g.r.IntN(len(sites))]
		kinds := []string{"null", "wrong_type"}
		switch s.typ {
		case "object":
			kinds = append(kinds, "drop_key", "extra_key", "case_key", "drop_key", "extra_key")
		case "array":
			kinds = append(kinds, "fewer_items", "more_items", "dup_item")
		case "string":
			kinds = append(kinds, "short_string", "long_string", "wide_string", "bad_pattern", "bad_format", "string_edit")
		case "integer", "number":
			kinds = append(kinds, "edge_number", "edge_number", "edge_number", "bound_number", "number_as_string")
		case "enum", "const":
			kinds = append(kinds, "not_member", "not_member", "number_as_string")
		}
		kind := kinds[g.r.IntN(len(kinds))]
		c := deepCopy(v)
		nv, ok := set(c, s.path, func(old any) (any, bool) { return g.apply(kind, s, old) })
		if ok {
			out = append(out, mutation{kind, s, nv})
		}
	}
	return out
}

func (g *gen) apply(kind string, s site, old any) (any, bool) {
	switch kind {
	case "null":
		return nil, old != nil
	case "wrong_type":
		alts := []any{"x", json.Number("7"), json.Number("2.5"), true, []any{}, map[string]any{}, []any{"x"}, map[string]any{"k": json.Number("1")}}
		for i := 0; i < 10; i++ {
			a := alts[g.r.IntN(len(alts))]
			if jsonType(a) != jsonType(old) {
				return a, true
			}
		}
		return nil, false
	case "drop_key", "extra_key", "case_key":
		m, ok := old.(map[string]any)
		if !ok {
			return nil, false
		}
		keys := sortedKeys(m)
		switch kind {
		case "drop_key":
			if len(keys) == 0 {
				return nil, false
			}
			delete(m, keys[g.r.IntN(len(keys))])
		case "extra_key":
			m[[]string{"zz_extra", "Extra", "__proto__", "7"}[g.r.IntN(4)]] = json.Number("1")
		case "case_key":
			for _, k := range keys {
				if sw := swapCase(k); sw != k {
					if _, taken := m[sw]; !taken {
						m[sw] = m[k]
						delete(m, k)
						return m, true
					}
				}
			}
			return nil, false
		}
		return m, true
	case "fewer_items", "more_items", "dup_item":
		a, ok := old.([]any)
		if !ok {
			return nil, false
		}
		switch kind {
		case "fewer_items":
			if len(a) == 0 {
				return nil, false
			}
			return a[:len(a)-1], true
		case "more_items":
			return append(a, g.value(s.node["items"], nil, maxGenDepth)), true
		default:
			if len(a) == 0 {
				return nil, false
			}
			return append(a, deepCopy(a[0])), true
		}
	case "short_string", "long_string", "wide_string", "bad_pattern", "string_edit":
		str, ok := old.(string)
		if !ok {
			return nil, false
		}
		minL, hasMin := intOf(s.node["minLength"])
		maxL, hasMax := intOf(s.node["maxLength"])
		switch kind {
		case "short_string":
			if hasMin && minL > 0 {
				return g.runes(minL - 1), true
			}
			return "", true
		case "long_string":
			if hasMax {
				return g.runes(maxL + 1), true
			}
			return str + g.runes(50), true
		case "wide_string":
			// as many runes as allowed, each several bytes long
			n := maxL
			if !hasMax {
				n = minL + 3
			}
			return strings.Repeat("日", n), true
		case "bad_pattern":
			return str + []string{"<", ">", "\n", "\u2028", "\x00"}[g.r.IntN(5)], true
		default:
			return []string{" " + str, str + " ", strings.ToUpper(str), "\ufeff" + str, "\\u0000"}[g.r.IntN(5)], true
		}
	case "bad_format":
		f, _ := s.node["format"].(string)
		if s.node["contentEncoding"] == "base64" {
			return []string{"!!!", "YWJj=", "YWI", "YW Jj", "YWJj\n", "-_-_"}[g.r.IntN(6)], true
		}
		if bad := badFormats[f]; len(bad) > 0 {
			return bad[g.r.IntN(len(bad))], true
		}
		return nil, false
	case "edge_number":
		return json.Number(edgeNumbers[g.r.IntN(len(edgeNumbers))]), true
	case "bound_number":
		c := numbersOf(s.node, s.typ == "integer")
		var cands []*big.Rat
		eps := []*big.Rat{rat("1"), rat("1/1000")}
		for _, b := range []*big.Rat{c.min, c.max, c.exMin, c.exMax} {
			if b != nil {
				for _, e := range eps {
					cands = append(cands, b, add(b, e), new(big.Rat).Sub(b, e))
				}
			}
		}
		if c.mult != nil {
			cands = append(cands, add(c.mult, rat("1/1000")), new(big.Rat).Mul(c.mult, rat("29")), new(big.Rat).Mul(c.mult, rat("57")))
		}
		if len(cands) == 0 {
			return nil, false
		}
		return numText(cands[g.r.IntN(len(cands))]), true
	case "number_as_string":
		if n, ok := old.(json.Number); ok {
			return string(n), true
		}
		return nil, false
	case "not_member":
		switch old := old.(type) {
		case string:
			return "zzz", true
		case bool:
			return !old, true
		case json.Number:
			return json.Number([]string{"99", "2.5", "0", "-1"}[g.r.IntN(4)]), true
		case nil:
			return "zzz", true
		}
		return nil, false
	}
	return nil, false
}

func swapCase(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if unicode.IsUpper(r) {
		return string(unicode.ToLower(r)) + s[n:]
	}
	if unicode.IsLower(r) {
		return string(unicode.ToUpper(r)) + s[n:]
	}
	return s
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "?"
}
