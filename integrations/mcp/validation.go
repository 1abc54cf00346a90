package tnmcp

import "github.com/toolnexus/toolnexus/define"

// WithoutValidation makes the server's tools send a call's arguments as
// the model wrote them, checking only that they are one JSON object,
// instead of validating them against the tool's input schema first
// (define.WithoutValidation). By default [Remote] validates every call
// before the network, with the errors, limits and checks of a local tool,
// and a tool whose schema has a keyword the validator cannot enforce
// ("not", "if"/"then", "patternProperties", ...) is left out of the
// listing like any tool with a bad schema, its error naming the tool and
// the keyword (wrapping schema.ErrUnsupportedKeyword) reported through
// [Remote.Skipped] and [OnSkip]; this option is for such a server, which
// then checks the arguments itself, so that every one of its tools loads.
func WithoutValidation() RemoteOption {
	return remoteOption(func(c *remoteConfig) { c.toolOpts = append(c.toolOpts, define.WithoutValidation()) })
}
