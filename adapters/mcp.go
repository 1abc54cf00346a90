package adapters

import (
	"encoding/json"
	"strconv"

	"github.com/toolnexus/toolnexus/define"
)

// The MCP home (the server side of tools): this file (tools/list entries)
// and mcp_reply.go (tools/call requests and their responses).

var mcpSpec = &spec{
	name: NameMCP, funcName: "ToMCP", display: "MCP",
	options: optMode, optionText: "NullAsAnyOf",
	toolName: nameRule{text: "^[A-Za-z0-9_.-]{1,128}$", min: 1, max: 128,
		rest: func(c byte) bool { return isAlnum(c) || c == '_' || c == '.' || c == '-' }},
	dialect: mcpDialectFor, rootUnions: true, keepExtra: true,
	tools: func(p *spec, t []define.Tool, o []Option) (any, error) { return render(p, t, o, buildMCP) },
	build: buildAs(buildMCP),
	parse: ReplyLimits.ParseMCPReply,
	results: func(p *spec, c []Call, r []define.Result, o []Option) ([]any, error) {
		if _, err := resultsConfig(p, "MCPResponses", o, false); err != nil {
			return nil, err
		}
		if !hasParts(r) {
			return mcpTextResponses(c, r)
		}
		return asEntries(MCPResponses(c, r))
	},
	media: &mcpMedia,
	looks: func(member func(string) []byte) string {
		if member("jsonrpc") != nil || member("method") != nil {
			return "a JSON-RPC message"
		}
		return ""
	},
	prompt:     func(string) []any { return []any{} }, // MCP has no conversation
	appendJSON: appendAs(sizeMCP, appendMCP),
}

// mcpMedia is MCP's media: every part goes in the result's content.
var mcpMedia = mediaSpec{place: func(*define.Part, config) (place, string) { return inResult, "" }, options: "MediaAsNote"}

// mcpNullDialect is plain JSON Schema with nullable values as anyOf
// (NullAsAnyOf).
var mcpNullDialect = func() dialect { d := plainDialect; d.nullAnyOf = true; return d }()

// mcpDialectFor is MCP's dialect for cfg.
func mcpDialectFor(cfg config) *dialect {
	if cfg.mode == mcpNullAnyOf {
		return &mcpNullDialect
	}
	return &plainDialect
}

// mcpNullAnyOf is the mode (config.mode) NullAsAnyOf sets.
const mcpNullAnyOf = 1

// NullAsAnyOf makes [ToMCP] write a nullable value (a pointer field, by
// default "type": ["string", "null"]) as "anyOf": [{"type": "string", ...},
// {"type": "null"}], its constraints in the first branch. Both mean the
// same in JSON Schema 2020-12; use this one for clients whose schema
// checks, or whose models, handle only a single "type" (the MCP
// inspector's strict mode flags type lists as less portable).
func NullAsAnyOf() Option { return modeOption(NameMCP, mcpNullAnyOf, "NullAsAnyOf()") }

// MCPTool is one entry of an MCP tools/list result's "tools".
//
// The schemas, the annotations and the icons are pre-rendered and shared
// with the per-tool cache: replace them, never modify them.
type MCPTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  *MCPAnnotations `json:"annotations,omitempty"`
	Icons        []MCPIcon       `json:"icons,omitempty"`
}

// MCPAnnotations are a tool's behaviour hints (define.WithAnnotations);
// an unset hint is nil and absent from the wire, so that the client
// assumes the protocol's default.
type MCPAnnotations struct {
	ReadOnlyHint    *bool `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool `json:"openWorldHint,omitempty"`
}

// MCPIcon is one of a tool's icons (define.WithIcons).
type MCPIcon struct {
	Src      string   `json:"src"`
	MIMEType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// mcpMeta returns t's annotations and icons as MCP writes them.
func mcpMeta(t define.Tool) (*MCPAnnotations, []MCPIcon) {
	var ann *MCPAnnotations
	if a := t.Annotations(); !a.IsZero() {
		hint := func(h define.Hint) *bool {
			if v, ok := h.Set(); ok {
				return &v
			}
			return nil
		}
		ann = &MCPAnnotations{hint(a.ReadOnly), hint(a.Destructive), hint(a.Idempotent), hint(a.OpenWorld)}
	}
	var icons []MCPIcon
	for _, ic := range t.Icons() {
		icons = append(icons, MCPIcon{Src: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: ic.Theme})
	}
	return ann, icons
}

// ToMCP renders tools as MCP tools/list entries: name, title (from
// define.WithTitle), description, inputSchema, for a tool with a typed
// (struct) output, outputSchema, and the annotations and icons of
// define.WithAnnotations and define.WithIcons. Schemas are the canonical JSON Schema
// 2020-12, unknown keywords of hand-written schemas included. Names must be
// 1 to 128 characters of [A-Za-z0-9_.-].
func ToMCP(tools []define.Tool, opts ...Option) ([]MCPTool, error) {
	return render(mcpSpec, tools, opts, buildMCP)
}

func buildMCP(p *spec, cfg config, d toolData) (MCPTool, error) {
	if err := p.checkToolName(d.name); err != nil {
		return MCPTool{}, err
	}
	in, err := renderJS(p, cfg, d.name, d.in, "input")
	if err != nil {
		return MCPTool{}, err
	}
	t := MCPTool{Name: d.name, Title: d.title, Description: d.description, InputSchema: in}
	t.Annotations, t.Icons = mcpMeta(d.tool)
	if d.out != nil {
		if t.OutputSchema, err = renderJS(p, cfg, d.name, d.out, "output"); err != nil {
			return MCPTool{}, err
		}
	}
	return t, nil
}

// ForMCP returns the [Provider] for the server side of MCP tools. Tools is
// [ToMCP] with opts (a tools/list result's tools); Parse is
// [ParseMCPReply] (tools/call requests, one or a batch); Results is
// [MCPResponses], one JSON-RPC response per call (an [MCPTextResponse],
// the same JSON, each when no result has parts); Prompt returns nothing.
func ForMCP(opts ...Option) Provider { return forSpec(mcpSpec, opts) }

func appendMCP(dst []byte, t *MCPTool) ([]byte, error) {
	dst = append(dst, `{"name":`...)
	dst = appendString(dst, t.Name)
	if t.Title != "" {
		dst = append(dst, `,"title":`...)
		dst = appendString(dst, t.Title)
	}
	if t.Description != "" {
		dst = append(dst, `,"description":`...)
		dst = appendString(dst, t.Description)
	}
	dst = append(dst, `,"inputSchema":`...)
	dst, err := appendRaw(dst, t.InputSchema)
	if err == nil && len(t.OutputSchema) > 0 {
		dst = append(dst, `,"outputSchema":`...)
		dst, err = appendRaw(dst, t.OutputSchema)
	}
	if a := t.Annotations; a != nil {
		dst = append(dst, `,"annotations":{`...)
		first := true
		for _, h := range [...]struct {
			key string
			v   *bool
		}{{"readOnlyHint", a.ReadOnlyHint}, {"destructiveHint", a.DestructiveHint}, {"idempotentHint", a.IdempotentHint}, {"openWorldHint", a.OpenWorldHint}} {
			if h.v == nil {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(dst, '"')
			dst = append(dst, h.key...)
			dst = append(dst, `":`...)
			dst = strconv.AppendBool(dst, *h.v)
		}
		dst = append(dst, '}')
	}
	if len(t.Icons) > 0 {
		dst = append(dst, `,"icons":[`...)
		for i, ic := range t.Icons {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"src":`...)
			dst = appendString(dst, ic.Src)
			if ic.MIMEType != "" {
				dst = append(dst, `,"mimeType":`...)
				dst = appendString(dst, ic.MIMEType)
			}
			if len(ic.Sizes) > 0 {
				dst = append(dst, `,"sizes":[`...)
				for j, sz := range ic.Sizes {
					if j > 0 {
						dst = append(dst, ',')
					}
					dst = appendString(dst, sz)
				}
				dst = append(dst, ']')
			}
			if ic.Theme != "" {
				dst = append(dst, `,"theme":`...)
				dst = appendString(dst, ic.Theme)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	return append(dst, '}'), err
}

func sizeMCP(t *MCPTool) int {
	n := entryKeys + len(t.Name) + len(t.Title) + len(t.Description) + len(t.InputSchema) + len(t.OutputSchema)
	if t.Annotations != nil {
		n += 96
	}
	for _, ic := range t.Icons {
		n += 48 + len(ic.Src) + len(ic.MIMEType) + len(ic.Theme)
		for _, sz := range ic.Sizes {
			n += 3 + len(sz)
		}
	}
	return n
}

// NameMCP is MCP's name, as [Provider.Name] and [ReplyError.Provider]
// spell it.
const NameMCP = "mcp"
