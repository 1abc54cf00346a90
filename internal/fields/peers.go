package fields

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// The peer dialects are the struct tags of other Go JSON Schema libraries,
// which tool input structs ported to toolnexus carry:
//
//   - google/jsonschema-go (the MCP go-sdk, adk-go): jsonschema:"text" is
//     the description; that library refuses a text that begins with
//     WORD= (a run of characters other than space, tab and newline, then
//     "="), which is how its form is told from invopop's;
//   - invopop/jsonschema (genkit, openai-agents-go, eino's fork):
//     jsonschema:"key=value,key=value,flag", with \, for a comma inside a
//     value, and jsonschema_description:"text";
//   - mark3labs/mcp-go: jsonschema_description:"text", and in the
//     description form of jsonschema comma-separated enum=value parts,
//     which it takes out of the text as enum members.
//
// peerTags translates them into the swaggest tags that say the same, so
// that the schema and the decoder get them through the same [Rules]. What
// a peer key says that toolnexus cannot honour is an error, never dropped.

// origin is one tag translated from a peer dialect.
type origin struct {
	key  string // the swaggest tag it became, "minimum", "items.enum"
	tag  string // the peer tag, "jsonschema"
	word string // the peer's key, "minimum"; "" for a whole description
}

// origins are the translated tags of one field.
type origins []origin

func (o origins) of(key string) *origin {
	for i := range o {
		if o[i].key == key {
			return &o[i]
		}
	}
	return nil
}

// attribute restates an *Error about a translated tag as one about the
// peer tag the user wrote.
func (o origins) attribute(err error) error {
	var e *Error
	if len(o) == 0 || !errors.As(err, &e) {
		return err
	}
	or := o.of(e.Tag)
	if or == nil {
		return err
	}
	cp := *e
	cp.Tag = or.tag
	switch {
	case or.word == "":
		cp.Msg = "read as " + or.key + ": " + e.Msg
	case or.key != or.word:
		cp.Msg = "key " + or.word + " (read as " + or.key + "): " + e.Msg
	default:
		cp.Msg = "key " + or.word + ": " + e.Msg
	}
	return &cp
}

// Errorf is [Errorf] for a problem with the tag key of a field whose rules
// are r: a key translated from a peer dialect is reported as the tag the
// user wrote.
func (r *Rules) Errorf(path, key string, sentinel error, format string, args ...any) *Error {
	err := r.peer.attribute(errorf("", key, sentinel, format, args...))
	e := err.(*Error)
	e.Path = path
	return e
}

// rulesFor reads the rules of a field of type t (pointers removed) with
// the tags tag: the peer dialects translated, then (merge) the type's own
// declarations below the field's tags.
func rulesFor(r *Rules, t reflect.Type, tag reflect.StructTag, merge bool) error {
	tag, peer, err := peerTags(t, tag)
	if err != nil {
		return err
	}
	if merge {
		if tag, err = MergeTypeTags(t, tag); err != nil {
			return peer.attribute(err)
		}
	}
	if err := parseRulesInto(r, t, tag); err != nil {
		return peer.attribute(err)
	}
	r.peer = peer
	return nil
}

// peerTags returns tag with the peer dialects' tags translated into
// swaggest's, in front of the others, and where each came from.
func peerTags(t reflect.Type, tag reflect.StructTag) (reflect.StructTag, origins, error) {
	if !strings.Contains(string(tag), "jsonschema") {
		return tag, nil, nil
	}
	tr := translator{t: t, class: ClassOf(t), own: tag}
	if v, ok := tag.Lookup("jsonschema_extras"); ok && v != "" {
		key, _, _ := strings.Cut(v, "=")
		return "", nil, tr.errorf("jsonschema_extras", "", "%q: extra keywords are neither rendered nor enforced by the argument decoder "+
			"(consider the swaggest tag of the same name, or the jsonschema key, where one exists)", key)
	}
	if v, ok := tag.Lookup("jsonschema_description"); ok {
		if err := tr.add("description", v, "jsonschema_description", ""); err != nil {
			return "", nil, err
		}
	}
	if v, ok := tag.Lookup("jsonschema"); ok {
		if err := tr.jsonschema(v); err != nil {
			return "", nil, err
		}
	}
	if len(tr.out) == 0 {
		return tag, nil, nil
	}
	var b strings.Builder
	for _, kv := range tr.out {
		b.WriteString(kv.key + ":" + strconv.Quote(kv.value) + " ")
	}
	b.WriteString(string(tag))
	return reflect.StructTag(b.String()), tr.from, nil
}

type translator struct {
	t     reflect.Type
	class Class
	own   reflect.StructTag // the field's tags as written
	out   []struct{ key, value string }
	from  origins
}

func (tr *translator) errorf(tag, word, format string, args ...any) *Error {
	e := errorf("", tag, ErrInvalidTag, format, args...)
	if word != "" {
		e.Msg = "key " + word + ": " + e.Msg
	}
	return e
}

// add records the swaggest tag key:"value" translated from the peer tag's
// key word. The same key given twice, by the field's own tags or by
// another peer tag, is accepted only with the same text.
func (tr *translator) add(key, value, tag, word string) error {
	if own, ok := tr.own.Lookup(key); ok {
		if own != value {
			return tr.errorf(tag, word, "%q contradicts %s:%q on the same field (consider keeping one of the two)", value, key, own)
		}
		return nil
	}
	for i, kv := range tr.out {
		if kv.key != key {
			continue
		}
		if kv.value != value {
			prev := tr.from[i]
			by := prev.tag
			if prev.word != "" {
				by += " key " + prev.word
			}
			return tr.errorf(tag, word, "%q contradicts %q given by %s (consider giving it once)", value, kv.value, by)
		}
		return nil
	}
	tr.out = append(tr.out, struct{ key, value string }{key, value})
	tr.from = append(tr.from, origin{key: key, tag: tag, word: word})
	return nil
}

// invopopForm reports whether a jsonschema tag value is invopop's
// key=value list rather than google/jsonschema-go's description: it
// begins with WORD= (which google/jsonschema-go refuses as a description),
// or its first item is one of invopop's flags.
func invopopForm(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '=':
			return true
		case ' ', '\t', '\n':
			i = len(v)
		}
	}
	first := v
	if i := strings.IndexByte(v, ','); i >= 0 {
		first = v[:i]
	}
	return invopopFlag(first) || first == "nullable" || first == "-"
}

// splitUnescaped splits an invopop tag value at the commas not preceded by
// a backslash, and turns each \, into a comma, as invopop does.
func splitUnescaped(v string) []string {
	parts := strings.Split(v, ",")
	out := parts[:1]
	for _, part := range parts[1:] {
		if last := out[len(out)-1]; strings.HasSuffix(last, `\`) {
			out[len(out)-1] = last[:len(last)-1] + "," + part
			continue
		}
		out = append(out, part)
	}
	return out
}

// invopopRefused are invopop's keys that toolnexus cannot honour, with why.
var invopopRefused = map[string]string{
	"oneof_required": "a one-of of required sets is a rule across fields that the argument decoder does not check (consider optional pointer fields and checking the rule in the tool function)",
	"anyof_required": "an any-of of required sets is a rule across fields that the argument decoder does not check (consider optional pointer fields and checking the rule in the tool function)",
	"oneof_ref":      "the decoder decodes one Go type per field and cannot check alternatives (consider one struct with optional pointer fields)",
	"anyof_ref":      "the decoder decodes one Go type per field and cannot check alternatives (consider one struct with optional pointer fields)",
	"oneof_type":     "the decoder decodes one Go type per field and cannot check alternatives (consider json.RawMessage or any, checked in the tool function)",
	"anyof_type":     "the decoder decodes one Go type per field and cannot check alternatives (consider json.RawMessage or any, checked in the tool function)",
	"anchor":         "toolnexus writes no $anchor: it inlines every type but recursive ones, which go under $defs",
	"nullable":       "only pointers are nullable (consider a pointer type)",
	"-":              "invopop leaves the field out of the schema only, but the decoder would still take it (consider json:\"-\", which leaves it out of both)",
}

// arrayOwn are invopop's keys that stay on a slice or array field; every
// other key applies to its elements, as invopop applies it.
var arrayOwn = map[string]bool{
	"title": true, "description": true, "type": true, "required": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "default": true,
	"readOnly": true, "writeOnly": true,
}

// invopopKeys are the keys invopop reads (with a value) and their swaggest
// tags.
var invopopKeys = map[string]bool{
	"title": true, "description": true, "minLength": true, "maxLength": true, "pattern": true,
	"format": true, "minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"multipleOf": true, "minItems": true, "maxItems": true, "readOnly": true, "writeOnly": true,
}

// jsonschema translates the value of a jsonschema tag, in either form.
func (tr *translator) jsonschema(v string) error {
	const tag = "jsonschema"
	if v == "" {
		return tr.errorf(tag, "", "empty value (google/jsonschema-go refuses it too; consider removing the tag)")
	}
	if !invopopForm(v) {
		return tr.description(v)
	}
	array := tr.class == ClassArray
	route := func(k string) string {
		if array && !arrayOwn[k] {
			return "items." + k
		}
		return k
	}
	items := splitUnescaped(v)
	if mcpForm(items) {
		return tr.mcp(v, items)
	}
	var enums, examples, defaults []string
	for _, item := range items {
		if item == "" {
			continue // a trailing comma
		}
		word, val, hasValue := strings.Cut(item, "=")
		word = strings.TrimSpace(word)
		if why, ok := invopopRefused[word]; ok {
			return tr.errorf(tag, word, "not supported: %s", why)
		}
		if !hasValue {
			switch {
			case invopopFlag(word):
				val = "true"
			default:
				return tr.errorf(tag, strconv.Quote(word), "not one of invopop's flags (required, uniqueItems, readOnly, writeOnly); mcp-go reads such words as description text only when every other item is enum=… (consider description=…)")
			}
		}
		var err error
		switch word {
		case "required", "uniqueItems", "readOnly", "writeOnly": // (the flags, or with a boolean)
			if _, perr := strconv.ParseBool(val); perr != nil {
				return tr.errorf(tag, word, "malformed boolean %q (consider %s or %s=true)", val, word, word)
			}
			err = tr.add(route(word), val, tag, word)
		case "type":
			if want := jsonTypeOf(tr.t); val != want {
				if want == "" {
					want = "any JSON type"
				}
				return tr.errorf(tag, word, "%q does not fit %s, which decodes from %s (consider removing it: toolnexus takes the type from the Go type)", val, tr.t, want)
			}
		case "enum":
			enums = append(enums, val)
		case "example":
			examples = append(examples, val)
		case "default":
			if array {
				defaults = append(defaults, val)
			} else {
				err = tr.add("default", val, tag, word)
			}
		default:
			if !invopopKeys[word] {
				return tr.errorf(tag, strconv.Quote(word), "unknown key (invopop's keys are title, description, enum, default, example, minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minLength, maxLength, pattern, format, minItems, maxItems, uniqueItems, readOnly, writeOnly and the flag required; for others consider the swaggest tag of the same name)")
			}
			err = tr.add(route(word), val, tag, word)
		}
		if err != nil {
			return err
		}
	}
	for _, list := range []struct {
		key, word string
		vals      []string
	}{{route("enum"), "enum", enums}, {route("examples"), "example", examples}} {
		if list.vals == nil {
			continue
		}
		et := tr.t
		if array {
			et = Deref(tr.t.Elem())
		}
		text, err := valueList(et, list.vals)
		if err != nil {
			return tr.errorf(tag, list.word, "%v", err)
		}
		if err := tr.add(list.key, text, tag, list.word); err != nil {
			return err
		}
	}
	if defaults != nil {
		et := Deref(tr.t.Elem())
		if !ClassOf(et).Scalar() {
			return tr.errorf(tag, "default", "invopop lists the elements of a slice's default one by one, but the elements of %s are not strings, numbers or booleans (consider the swaggest tag default:\"[JSON]\")", tr.t)
		}
		text, err := valueList(et, defaults)
		if err != nil {
			return tr.errorf(tag, "default", "%v", err)
		}
		if err := tr.add("default", text, tag, "default"); err != nil {
			return err
		}
	}
	return nil
}

// valueList writes the values, each written plainly in type t as invopop
// writes them, as a JSON array of t's values; for a type that is not a
// string, number or boolean each value is JSON already.
func valueList(t reflect.Type, vals []string) (string, error) {
	c := ClassOf(t)
	if !c.Scalar() {
		return "[" + strings.Join(vals, ",") + "]", nil
	}
	out := make([]any, len(vals))
	for i, v := range vals {
		x, err := scalarValue(t, c, v)
		if err != nil {
			return "", err
		}
		out[i] = x
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// description translates google/jsonschema-go's form, in which the whole
// text is the description. mcp-go reads the same text again, and takes
// comma-separated enum=value parts out of it as the enum: so do we. Another
// of invopop's keys in the text is an error: the libraries read it
// differently.
func (tr *translator) description(v string) error {
	parts := strings.Split(v, ",")
	for _, part := range parts {
		word, _, ok := strings.Cut(strings.TrimSpace(part), "=")
		switch {
		case !ok || strings.ContainsAny(word, " \t\n"), word == "enum":
		case invopopKeys[word] || arrayOwn[word] || word == "example":
			return tr.errorf("jsonschema", word, "in a description (%q): google/jsonschema-go reads it as text, invopop/jsonschema as a key "+
				"(consider putting the keys first, jsonschema:\"%s=…,description=…\", or the swaggest tags)", v, word)
		}
	}
	if !mcpForm(parts) {
		return tr.add("description", v, "jsonschema", "")
	}
	return tr.mcp(v, parts)
}

// mcpForm reports whether the comma-separated parts of a jsonschema tag
// are mcp-go's: at least one enum=value and some text, without another
// invopop key or flag. (enum=value parts alone are read as invopop's,
// which puts them on the elements of a slice where mcp-go would put them
// on the slice.)
func mcpForm(parts []string) bool {
	enum, text := false, false
	for _, part := range parts {
		part = strings.TrimSpace(part)
		word, _, ok := strings.Cut(part, "=")
		switch {
		case ok && word == "enum":
			enum = true
		case ok && !strings.ContainsAny(word, " \t\n"):
			return false // another key
		case invopopFlag(part) || part == "-" || part == "nullable":
			return false
		case part != "":
			text = true
		}
	}
	return enum && text
}

// invopopFlag reports whether s is one of invopop's flags that toolnexus
// reads.
func invopopFlag(s string) bool {
	switch s {
	case "required", "uniqueItems", "readOnly", "writeOnly":
		return true
	}
	return false
}

// mcp translates mcp-go's form: the enum=value parts are the enum, the
// other parts (trimmed, joined with ", ") the description.
func (tr *translator) mcp(v string, parts []string) error {
	var text, enums []string
	for _, part := range parts {
		part = strings.TrimSpace(part)
		if val, ok := strings.CutPrefix(part, "enum="); ok {
			enums = append(enums, val)
		} else if part != "" {
			text = append(text, part)
		}
	}
	if len(text) > 0 {
		if err := tr.add("description", strings.Join(text, ", "), "jsonschema", ""); err != nil {
			return err
		}
	}
	if tr.class == ClassArray {
		return tr.errorf("jsonschema", "enum", "in mcp-go's form (%q) the enum is the %s's own, which no array matches (consider items.enum:\"…\" for the elements)", v, tr.t)
	}
	list, err := valueList(tr.t, enums)
	if err != nil {
		return tr.errorf("jsonschema", "enum", "%v", err)
	}
	return tr.add("enum", list, "jsonschema", "enum")
}

// jsonTypeOf is the JSON type t (pointers removed) decodes from, as
// "type" names it, or "" for any JSON value.
func jsonTypeOf(t reflect.Type) string {
	if UnmarshalsJSON(t) {
		return ""
	}
	k, err := KindOf(t)
	if err != nil {
		return ""
	}
	switch k {
	case Time, Text, Bytes, String:
		return "string"
	case Int, Uint:
		return "integer"
	case Float, JSONNumber:
		return "number"
	case Bool:
		return "boolean"
	case Slice, Array:
		return "array"
	case Map, Struct:
		return "object"
	}
	return ""
}
