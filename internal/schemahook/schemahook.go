// Package schemahook lets package define read the schema trees that package
// schema caches per Go type, without the deep copy [schema.ForType] hands
// to its callers, and ask whether a tree can be built later. Package schema
// fills Shared and Deferrable in its init; the tree comes
// back as any because this package cannot import schema (schema imports
// it).
//
//	v, err := schemahook.Shared(reflect.TypeFor[Args]())
//	tree := v.(*schema.Schema) // shared: never modify it
package schemahook

import "reflect"

// Shared returns the cached *schema.Schema of t (as any) and the error
// schema.ForType would return for t. The tree is shared by every caller
// and must never be modified.
var Shared func(t reflect.Type) (tree any, err error)

// Deferrable reports whether Shared(t) can wait until the tree is first
// needed: whether every error its build could return has been ruled out
// by the checks Deferrable itself runs (see reflectx.Deferrable, and no
// type reachable from t speaks to swaggest's reflector).
var Deferrable func(t reflect.Type) bool
