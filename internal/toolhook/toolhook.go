// Package toolhook gives the adapters what a define.Tool keeps out of its
// public API: the shared schema trees and a per-tool cache. The define
// package fills the two functions in its init; they take the tool as any
// because define imports this package, not the other way round.
//
//	in, out := toolhook.Schemas(tool) // shared: never modify them
//	v, err := toolhook.Memo(tool, key, build)
package toolhook

import "github.com/toolnexus/toolnexus/schema"

var (
	// Schemas returns a define.Tool's canonical input schema and its output
	// schema (or nil), shared by every copy of the tool: callers must not
	// modify them (Clone first).
	Schemas func(tool any) (in, out *schema.Schema)

	// Memo returns the value cached on a define.Tool under key, calling
	// build the first time. A build error is returned and not cached. As
	// with context.Context values, key should be of an unexported type of
	// the caller's package. Concurrent first calls may each run build; one
	// result wins and is returned to all later callers.
	Memo func(tool any, key any, build func() (any, error)) (any, error)
)
