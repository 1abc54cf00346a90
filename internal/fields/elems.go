package fields

import (
	"errors"
	"reflect"
	"strings"
)

// ElemPrefix returns the prefix of the tags that reach the elements of a
// value of class c: "items." for slices and arrays, "values." for maps, ""
// for the other classes. swaggest/jsonschema-go has no such tags (it
// constrains elements only through a named element type's
// PrepareJSONSchema); the prefix, followed by one of swaggest's tag names,
// says the same of every element: items.format:"email" on a []string is
// format:"email" on each string. Prefixes nest: items.items.minimum on a
// [][]int reaches the ints.
func ElemPrefix(c Class) string {
	switch c {
	case ClassArray:
		return "items."
	case ClassMap:
		return "values."
	}
	return ""
}

// elemKeys are the tags that may follow items. or values.: every tag the
// parser reads but default and required (an element is never missing).
// nullable is listed so that it gets its own refusal.
var elemKeys = map[string]bool{
	"title": true, "description": true, "deprecated": true, "readOnly": true, "writeOnly": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minLength": true, "maxLength": true, "pattern": true, "format": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "minProperties": true, "maxProperties": true,
	"enum": true, "const": true, "example": true, "examples": true, "nullable": true,
}

// keyFits reports whether the constraint tag name applies to a value of
// class c (for the hints that point to items.* and values.*).
func keyFits(name string, c Class) bool {
	switch name {
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		return c == ClassInteger || c == ClassNumber
	case "minLength", "maxLength", "pattern", "format":
		return c == ClassString
	case "minItems", "maxItems", "uniqueItems":
		return c == ClassArray
	case "minProperties", "maxProperties":
		return c == ClassMap
	case "enum", "const":
		return c.Scalar()
	}
	return false
}

// elems reads the items.* or values.* tags into r.Elem: the tags without
// their prefix, with the element type's own declarations below them, read
// as the tags of a field of the element type.
func (p *parser) elems() error {
	s := string(p.tag)
	if !strings.Contains(s, "items.") && !strings.Contains(s, "values.") {
		return nil
	}
	var sub []byte
	pre := ""
	for rest := s; ; {
		key, quoted, next, ok := nextPair(rest)
		if !ok {
			break
		}
		rest = next
		kp := ""
		switch {
		case strings.HasPrefix(key, "items."):
			kp = "items."
		case strings.HasPrefix(key, "values."):
			kp = "values."
		default:
			continue
		}
		if err := p.elemKey(key, kp); err != nil {
			return err
		}
		pre = kp
		sub = append(sub, key[len(kp):]...)
		sub = append(sub, ':')
		sub = append(sub, quoted...)
		sub = append(sub, ' ')
	}
	if pre == "" {
		return nil
	}
	et := Deref(p.r.Type.Elem())
	if tr := typeHooks(et); tr.err != nil {
		return tr.err // the element type's own fault, whatever the tags say
	}
	tag, err := MergeTypeTags(et, reflect.StructTag(sub))
	if err == nil {
		er := new(Rules)
		if err = parseRulesInto(er, et, tag); err == nil {
			p.r.Elem = er
			return nil
		}
	}
	return elemError(err, pre)
}

// elemKey checks that the tag key, which begins with pre, fits the field.
func (p *parser) elemKey(key, pre string) error {
	if want := ElemPrefix(p.r.Class); want != pre {
		what := "slices and arrays"
		if pre == "values." {
			what = "maps"
		}
		hint := ""
		if want != "" {
			hint = " (consider " + want + key[len(pre):] + " for a " + p.r.Class.String() + ")"
		}
		return p.errorf(key, "does not apply to %s: %s* tags reach the elements of %s%s", p.r.Type, pre, what, hint)
	}
	name := key[len(pre):]
	switch {
	case name == "default", name == "required":
		return p.errorf(key, "an element is never missing, so it has no %s (consider %s on the field itself)", name, name)
	case strings.HasPrefix(name, "items.") || strings.HasPrefix(name, "values."):
		return nil // checked when the element's tags are read
	case !elemKeys[name]:
		return p.errorf(key, "unknown tag %q after %s (consider one of swaggest's tag names: format, pattern, enum, minimum, minLength, ...)", name, pre)
	}
	return nil
}

// ElemError is elemError for a check of r's element rules (r.Elem) made
// elsewhere (the decode plan's): the error is put under the elements'
// prefix, and a tag translated from a peer dialect is named as written.
func (r *Rules) ElemError(err error) error {
	return r.peer.attribute(elemError(err, ElemPrefix(r.Class)))
}

// elemError puts an error about an element's tags under the prefix.
func elemError(err error, pre string) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	cp := *e
	if e.Tag != "" {
		cp.Tag = pre + e.Tag
	} else {
		cp.Msg = "the " + pre + "* tags: " + e.Msg
	}
	return &cp
}
