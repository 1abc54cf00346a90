package adapters

import (
	"errors"

	"github.com/toolnexus/toolnexus/define"
)

// The strict rendering a call answers, a core file: what a call must
// carry for its nulls to be read as the rendering meant them.

// Rendering identifies the strict rendering of the tools a model was shown,
// where it changes how the model's calls read: a provider whose strict
// mode makes every property required and the optional ones nullable
// (OpenAI Chat Completions and Responses, and the servers of [ForOpenAI]
// that take strict tools), with [Strict] or [StrictWherePossible]. Under
// it, the model cannot leave an optional property out, so it sends null:
// a null for such a property means the property was left out.
//
// The zero Rendering is none: a provider without options, one whose
// strict mode keeps optional properties optional (Anthropic), or none at
// all. A tool pinned strict with define.WithStrict is read so whatever
// the call's Rendering (toolnexus.Toolkit.Run sees to it).
//
// A Provider's Parse, ParseStream and streams ([NewStream],
// toolnexus.Toolkit.RunStream) set [Call].Rendering; [RenderingOf] gives
// it for calls made another way (from an SDK's types).
type Rendering struct {
	r *rendering // nil for none: a Call carries one word
}

// rendering is a Rendering's provider and options.
type rendering struct {
	p   *spec
	cfg config
}

// RenderingOf returns the strict rendering of p's Tools, as its Parse
// marks its calls with it; the zero Rendering when p renders no tool
// strict with nullable optional properties (or p is nil).
func RenderingOf(p Provider) Rendering {
	if p == nil {
		return Rendering{}
	}
	return p.impl().rendering()
}

// rendering is RenderingOf(r).
func (r roundTrip) rendering() Rendering {
	if len(r.opts) == 0 || r.spec.options&optStrict == 0 {
		return Rendering{}
	}
	cfg, err := newConfig(r.spec, r.opts)
	if err != nil || !cfg.strict && !cfg.strictAuto {
		return Rendering{}
	}
	strict := cfg
	strict.strict, strict.strictAuto = true, false
	if !r.spec.dialect(strict).allRequired {
		return Rendering{}
	}
	return Rendering{&rendering{p: r.spec, cfg: cfg}}
}

// IsZero reports whether r is no rendering.
func (r Rendering) IsZero() bool { return r.r == nil }

// Equal reports whether r and o are the same rendering (go-cmp uses it).
func (r Rendering) Equal(o Rendering) bool {
	return r.r == o.r || r.r != nil && o.r != nil && *r.r == *o.r
}

// String names the provider and its strictness option: "openai
// StrictWherePossible()"; "" for the zero Rendering.
func (r Rendering) String() string {
	switch {
	case r.r == nil:
		return ""
	case r.r.cfg.strictAuto:
		return r.r.p.name + " StrictWherePossible()"
	}
	return r.r.p.name + " Strict(true)"
}

// NullMeansAbsent reports whether r rendered tool t strict with its
// optional properties nullable, so that a null for one of them in a call
// of t means the property was left out: under Strict(true) every tool not
// pinned non-strict; under StrictWherePossible() those whose schema fits
// the strict subset and limits (as the rendering found, kept on the tool).
// The reading itself is define's ([define.Tool.NullsAsAbsentJSON]).
func (r Rendering) NullMeansAbsent(t define.Tool) bool {
	if r.r == nil || t.IsZero() {
		return false
	}
	p := r.r.p
	cfg, _ := toolConfig(p, r.r.cfg, t)
	strict := cfg
	strict.strict, strict.strictAuto = true, false
	switch {
	case cfg.strictAuto:
		return fitsStrict(p, strict, t) && p.dialect(strict).allRequired
	case cfg.strict:
		return p.dialect(strict).allRequired
	}
	return false
}

// fitKey keeps on a tool whether it renders strict with cfg.
type fitKey struct {
	p   *spec
	cfg config
}

// fitsStrict reports whether t renders with the strict cfg, as
// StrictWherePossible finds it (buildStrictness): a tool the strict
// subset or its limits refuse is sent non-strict.
func fitsStrict(p *spec, cfg config, t define.Tool) bool {
	ok, _ := define.Memo(t, fitKey{p, cfg}, func() (bool, error) {
		_, err := p.build(p, cfg, dataOf(t))
		return err == nil || !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrLimit), nil
	})
	return ok
}

// markRendering gives calls the rendering r.
func markRendering(calls []Call, r Rendering) {
	if r.r == nil {
		return
	}
	for i := range calls {
		calls[i].Rendering = r
	}
}
