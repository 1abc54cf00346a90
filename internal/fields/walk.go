package fields

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"unicode"
)

// Field is one JSON property of a struct, after encoding/json's selection
// and dominance rules, with its tags read and checked.
type Field struct {
	Name     string       // the JSON name
	GoPath   string       // the Go selector path from the struct, "Base.ID"
	Index    []int        // for reflect.Value.FieldByIndex
	Type     reflect.Type // the field's declared type
	Offset   uintptr      // from the struct, or from the last embedded pointer in Embeds
	Embeds   []Embed      // embedded pointers on the way, usually none
	Required bool         // a call must give the property
	Rules    *Rules       // the field's tags, read for Deref(Type)

	// The json tag's options, for encoders ([Walk]'s fields).
	OmitEmpty bool // ",omitempty"
	OmitZero  bool // ",omitzero"
	Quoted    bool // ",string"

	tag     reflect.StructTag
	tagged  bool // the name came from the json tag
	depth   int
	omit    bool   // omitempty or omitzero
	quoted  bool   // the ",string" option
	ptrUnex string // the embedded pointer to an unexported struct on the way
}

// Embed is an embedded pointer to a struct on the way to a field: at
// base+Offset lies a *Elem, allocated by the decoder on first use.
type Embed struct {
	Offset uintptr
	Elem   reflect.Type
}

type described struct {
	fields []Field
	err    error
}

// Describe returns the JSON properties of struct type t in Go field order
// (the fields of an embedded struct at the embedding point), with their
// tags read and checked. The result is cached and shared: callers must not
// modify it. An error is an [*Error] whose path is relative to t.
func Describe(t reflect.Type) ([]Field, error) {
	f := factsOf(t)
	if d := f.described.Load(); d != nil {
		return d.fields, d.err
	}
	fs, err := describe(t)
	if err != nil {
		fs = nil
	}
	f.described.CompareAndSwap(nil, &described{fields: fs, err: err})
	d := f.described.Load()
	return d.fields, d.err
}

// Walk returns the JSON properties of struct type t as encoding/json
// selects them, in Go field order, without reading or checking any tag
// but json's: what an encoder needs (Name, Index, Type, Embeds and the
// json options), for any struct type, including those [Describe] refuses.
// The result is cached and shared: callers must not modify it.
func Walk(t reflect.Type) []Field {
	f := factsOf(t)
	if fs := f.walked.Load(); fs != nil {
		return *fs
	}
	fs := walk(t)
	f.walked.CompareAndSwap(nil, &fs)
	return *f.walked.Load()
}

func describe(t reflect.Type) ([]Field, error) {
	fs := walk(t)
	rules := make([]Rules, len(fs)) // one allocation for the fields' rules
	for i := range fs {
		f := &fs[i]
		if f.ptrUnex != "" {
			return nil, errorf(f.GoPath, "", ErrUnsupportedType,
				"reached through %s, an embedded pointer to an unexported struct type, which cannot be allocated when decoding (consider embedding it by value)",
				f.ptrUnex)
		}
		if f.quoted {
			return nil, errorf(f.GoPath, "json", ErrInvalidTag, `the ",string" option is not supported (consider a string field)`)
		}
		base := Deref(f.Type)
		if _, err := KindOf(base); err != nil {
			return nil, Under(err, f.GoPath, nil)
		}
		r := &rules[i]
		if err := rulesFor(r, base, f.tag, true); err != nil {
			return nil, Under(err, f.GoPath, nil)
		}
		f.Rules = r
		f.Required = !f.omit && f.Type.Kind() != reflect.Pointer && !r.HasDefault
		if r.Required != nil {
			f.Required = *r.Required
			if f.Required && r.HasDefault {
				return nil, Under(r.Errorf("", "default", ErrInvalidTag,
					"default is never used on a required field (consider removing required:\"true\" or the default)"), f.GoPath, nil)
			}
		}
	}
	return fs, nil
}

// walk lists the fields of struct type t with encoding/json's rules:
// exported fields only, json:"-" skips, embedded structs without a json name
// are flattened, and among fields with the same name the shallowest wins,
// then a tagged one, else all are dropped.
func walk(t reflect.Type) []Field {
	type level struct {
		t       reflect.Type
		index   []int
		goPath  string
		offset  uintptr
		embeds  []Embed
		ptrUnex string
	}
	n := t.NumField()
	out := make([]Field, 0, n)
	// The fields of t itself take their one-element indexes from one array.
	rootIndex := make([]int, n)
	next := []level{{t: t}}
	var visited map[reflect.Type]bool
	var count map[reflect.Type]int
	for depth := 0; len(next) > 0; depth++ {
		current := next
		next = nil
		if depth > 0 {
			if visited == nil {
				visited = map[reflect.Type]bool{t: true}
			}
			// A type embedded twice at one depth contributes its fields
			// twice, so that they annihilate below.
			count = map[reflect.Type]int{}
			for _, lv := range current {
				count[lv.t]++
			}
		}
		for _, lv := range current {
			if depth > 0 {
				if visited[lv.t] {
					continue
				}
				visited[lv.t] = true
			}
			for i := range lv.t.NumField() {
				sf := lv.t.Field(i)
				ft := sf.Type
				if sf.Anonymous {
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = "" // as encoding/json: the Go name is used
				}
				var index []int
				if depth == 0 {
					rootIndex[i] = i
					index = rootIndex[i : i+1 : i+1]
				} else {
					index = append(slices.Clip(lv.index), i)
				}
				goPath := Join(lv.goPath, sf.Name)
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					nl := level{t: ft, index: index, goPath: goPath, offset: lv.offset + sf.Offset, embeds: lv.embeds, ptrUnex: lv.ptrUnex}
					if sf.Type.Kind() == reflect.Pointer {
						if !sf.IsExported() && nl.ptrUnex == "" {
							nl.ptrUnex = goPath
						}
						nl.offset = 0
						nl.embeds = append(slices.Clip(lv.embeds), Embed{Offset: lv.offset + sf.Offset, Elem: ft})
					}
					next = append(next, nl)
					continue
				}
				f := Field{
					Name: name, GoPath: goPath, Index: index, Type: sf.Type,
					Offset: lv.offset + sf.Offset, Embeds: lv.embeds,
					tag: sf.Tag, tagged: name != "", depth: depth, ptrUnex: lv.ptrUnex,
				}
				if f.Name == "" {
					f.Name = sf.Name
				}
				for opts != "" {
					var o string
					o, opts, _ = strings.Cut(opts, ",")
					switch o {
					case "omitempty":
						f.omit, f.OmitEmpty = true, true
					case "omitzero":
						f.omit, f.OmitZero = true, true
					case "string":
						f.quoted, f.Quoted = true, true
					}
				}
				out = append(out, f)
				if count[lv.t] > 1 {
					out = append(out, f)
				}
			}
		}
		if depth == 0 && len(next) == 0 && distinctNames(out) {
			// Nothing embedded, no name twice: the fields are already in
			// index order and none dominates another.
			return out
		}
	}
	// Dominance: by name, the shallowest wins, then a tagged field;
	// otherwise the name is dropped, as encoding/json does.
	slices.SortStableFunc(out, func(a, b Field) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := cmp.Compare(a.depth, b.depth); c != 0 {
			return c
		}
		switch {
		case a.tagged == b.tagged:
			return 0
		case a.tagged:
			return -1
		}
		return 1
	})
	kept := out[:0]
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].Name == out[i].Name {
			j++
		}
		group := out[i:j]
		i = j
		if len(group) == 1 || group[0].depth != group[1].depth || group[0].tagged != group[1].tagged {
			kept = append(kept, group[0])
		}
	}
	slices.SortFunc(kept, func(a, b Field) int { return slices.Compare(a.Index, b.Index) })
	return kept
}

// distinctNames reports whether no two fields share a name, for the small
// structs that tools take (beyond 32 fields it answers false, and the
// general path sorts).
func distinctNames(fs []Field) bool {
	if len(fs) > 32 {
		return false
	}
	for i := range fs {
		for j := i + 1; j < len(fs); j++ {
			if fs[i].Name == fs[j].Name {
				return false
			}
		}
	}
	return true
}

// validTagName mirrors encoding/json's isValidTag: other names fall back to
// the Go field name.
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
