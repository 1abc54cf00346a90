package define

import "github.com/toolnexus/toolnexus/internal/names"

// WithSanitizedName makes the tool's name valid for every provider
// instead of refusing it ([ValidateName]): each run of characters outside
// [a-zA-Z0-9_-] becomes one "_", a leading digit or "-" gets a "_" before
// it, an empty name becomes "tool", and a name over 64 bytes is cut and
// ends in "_" and six hex digits of a hash of the name ([SanitizeName]).
// A valid name is kept as it is. The name as given stays available as
// [Tool.OriginalName], to map a call back to what it names outside (a
// remote tool, a plugin's command). It applies to [NewTool]'s name and to
// a name given with [WithName]; integrations/mcp maps the names of a
// remote server's tools the same way.
func WithSanitizedName() Option {
	return optionFunc{func(c *config) { c.sanitizeName = true }, "WithSanitizedName()"}
}

// SanitizeName returns name made valid as [WithSanitizedName] makes it:
// a valid name unchanged, any other one passing [ValidateName].
func SanitizeName(name string) string { return names.Tool(name) }

// SanitizeNames returns the name of each of the given names, with prefix
// before each, as a set: a name that is valid stays (after the prefix),
// every other is made valid as [SanitizeName] does, and one that another
// name already has gets the hash suffix too, the mapped names taken in
// sorted order, so that the result depends only on the set of names, not
// on their order. Every result is unique and passes [ValidateName].
// list must not hold a name twice. integrations/mcp names a remote
// server's tools with it.
func SanitizeNames(prefix string, list []string) []string {
	return names.Map(prefix, list, names.ValidTool, names.Tool)
}

// OriginalName returns the name the tool was given before
// [WithSanitizedName] made it valid; [Tool.Name] when it was valid or the
// option was not given.
func (t Tool) OriginalName() string {
	if t.s == nil {
		return ""
	}
	if t.s.original != "" {
		return t.s.original
	}
	return t.s.name
}

// toolName returns the name the tool gets and, when WithSanitizedName
// changed it, the name as given ("" otherwise).
func (c config) toolName(name string) (string, string) {
	if !c.sanitizeName {
		return name, ""
	}
	if clean := names.Tool(name); clean != name {
		return clean, name
	}
	return name, ""
}
