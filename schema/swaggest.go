package schema

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/swaggest/jsonschema-go"

	"github.com/toolnexus/toolnexus/internal/fields"
)

// typeNotes is what the swaggest reflector tells about a type beyond its
// kind: a title and a description (the Titled and Described interfaces) and
// an enum (the Enum and NamedEnum interfaces).
type typeNotes struct {
	title, description string
	enum               []any
}

// reflectNotes runs swaggest's reflector over root and collects the notes of
// every type it visits.
//
// swaggest does the reflection of everything a type declares through
// swaggest's own interfaces; the structure, names, order, required set and
// field tags are computed by this package from the reflect.Type (swaggest
// sorts properties, requires nothing by default, reads bounds as float64,
// keeps comma-separated numeric enums as strings and makes slices nullable,
// none of which fits the rules the decoder shares). A new Reflector is used
// per call: a Reflector is not safe for concurrent use.
func reflectNotes(root reflect.Type) (notes map[reflect.Type]typeNotes, err error) {
	notes = map[reflect.Type]typeNotes{}
	if !fields.ReachesSwaggestHooks(root) {
		// Nothing in the type graph can tell swaggest anything: its reflector
		// would find no notes. Skipping it halves the cost of a first ForType.
		return notes, nil
	}
	var lastPath []string
	defer func() {
		if p := recover(); p != nil {
			err = &TypeError{Type: root, Path: strings.Join(lastPath, "."), Err: ErrReflector,
				Msg: fmt.Sprintf("swaggest reflector panicked: %v", p)}
		}
	}()
	r := jsonschema.Reflector{}
	_, err = r.Reflect(reflect.New(root).Interface(),
		jsonschema.ProcessWithoutTags,
		jsonschema.InterceptProp(func(p jsonschema.InterceptPropParams) error {
			if !p.Processed {
				lastPath = append(lastPath[:0], p.Path[1:]...)
			}
			return nil
		}),
		jsonschema.InterceptSchema(func(p jsonschema.InterceptSchemaParams) (bool, error) {
			if !p.Processed || !p.Value.IsValid() {
				return false, nil
			}
			t := fields.Deref(p.Value.Type())
			var n typeNotes
			if p.Schema.Title != nil {
				n.title = *p.Schema.Title
			}
			if p.Schema.Description != nil {
				n.description = *p.Schema.Description
			}
			n.enum = p.Schema.Enum
			if n.title != "" || n.description != "" || n.enum != nil {
				notes[t] = n
			}
			return false, nil
		}),
	)
	if err != nil {
		return nil, &TypeError{Type: root, Path: strings.Join(lastPath, "."), Err: ErrReflector,
			Msg: "swaggest: " + err.Error()}
	}
	return notes, nil
}
