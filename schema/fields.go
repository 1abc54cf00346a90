package schema

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"unicode"
)

// field is one JSON property of a struct after encoding/json's selection and
// dominance rules.
type field struct {
	name      string // JSON name
	tagged    bool   // name came from the json tag
	index     []int  // index sequence for reflect.Value.FieldByIndex
	typ       reflect.Type
	tag       reflect.StructTag
	goPath    string // Go selector path, "Base.ID"
	omitEmpty bool
	omitZero  bool
	quoted    bool // the ",string" option

	// embedPtrUnexported is set when the field is reached through an
	// embedded pointer to an unexported struct type, which encoding/json
	// cannot allocate.
	embedPtrUnexported string
}

// typeFields returns the JSON properties of struct type t in Go field order
// (fields of an embedded struct at the embedding point), with
// encoding/json's rules: exported fields only, json:"-" skips, embedded
// structs without a json name are flattened, and among fields with the same
// name the shallowest wins, then a tagged one, else all are dropped.
func typeFields(t reflect.Type) []field {
	type queued struct {
		typ     reflect.Type
		index   []int
		goPath  string
		ptrUnex string
	}
	var (
		current []queued
		next    = []queued{{typ: t}}

		count     = map[reflect.Type]int{}
		nextCount = map[reflect.Type]int{}
		visited   = map[reflect.Type]bool{}

		fields []field
	)
	for len(next) > 0 {
		current, next = next, nil
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
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
					name = ""
				}
				index := append(slices.Clip(f.index), i)
				goPath := sf.Name
				if f.goPath != "" {
					goPath = f.goPath + "." + sf.Name
				}
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					fl := field{
						name:               name,
						tagged:             name != "",
						index:              index,
						typ:                sf.Type,
						tag:                sf.Tag,
						goPath:             goPath,
						omitEmpty:          hasOpt(opts, "omitempty"),
						omitZero:           hasOpt(opts, "omitzero"),
						quoted:             hasOpt(opts, "string"),
						embedPtrUnexported: f.ptrUnex,
					}
					if fl.name == "" {
						fl.name = sf.Name
					}
					fields = append(fields, fl)
					if count[f.typ] > 1 {
						// Several embeddings of the same type at this depth:
						// duplicate so that dominance drops the name.
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					ptrUnex := f.ptrUnex
					if sf.Type.Kind() == reflect.Pointer && !sf.IsExported() && ptrUnex == "" {
						ptrUnex = goPath
					}
					next = append(next, queued{typ: ft, index: index, goPath: goPath, ptrUnex: ptrUnex})
				}
			}
		}
	}

	slices.SortFunc(fields, func(a, b field) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) == 1 || len(group[0].index) < len(group[1].index) || group[0].tagged != group[1].tagged {
			out = append(out, group[0])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b field) int { return slices.Compare(a.index, b.index) })
	return out
}

func hasOpt(opts, want string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == want {
			return true
		}
	}
	return false
}

// validTagName mirrors encoding/json's isValidTag.
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
