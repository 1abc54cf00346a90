package tnmcp

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/names"
)

// MaxDescription is the longest tool description, in characters (runes),
// that [Remote] hands on by default: OpenAI's limit, the strictest of the
// providers (it rejects a longer one with string_above_max_length).
const MaxDescription = 1024

// DescriptionMarker ends a description that [Remote] shortened.
const DescriptionMarker = "…"

// DefaultRefreshTimeout bounds the tools/list that a
// notifications/tools/list_changed starts; see [WithRefreshTimeout].
const DefaultRefreshTimeout = 30 * time.Second

// ErrLongDescription is wrapped by the error of [NewRemote] and
// [Remote.Refresh] for a remote tool whose description is longer than
// the limit, under [RefuseLongDescriptions].
var ErrLongDescription = errors.New("tnmcp: tool description too long")

// RemoteOption configures a [Remote]. The set is sealed: make options with
// the With functions of this package.
type RemoteOption interface {
	applyRemote(*remoteConfig)
}

type remoteConfig struct {
	prefix         string
	server         string
	maxDescription int
	refuseLong     bool
	refreshTimeout time.Duration
	toolOpts       []define.Option
	limits         ListLimits
	onSkip         func(SkippedTool)
}

type remoteOption func(*remoteConfig)

func (o remoteOption) applyRemote(c *remoteConfig) { o(c) }

// WithPrefix puts prefix before every remote tool's name ("github_" makes
// create_issue github_create_issue), so that the tools of several servers,
// and local tools, can share one toolkit. The prefixed name is then made
// valid like any other (see [Remote]).
func WithPrefix(prefix string) RemoteOption {
	return remoteOption(func(c *remoteConfig) { c.prefix = prefix })
}

// WithServerName sets the server's name in error results. By default it is
// the name the server gave in its initialize result (serverInfo.name), or
// "mcp" if it gave none.
func WithServerName(name string) RemoteOption {
	return remoteOption(func(c *remoteConfig) { c.server = name })
}

// WithMaxDescription sets the longest description, in characters, a remote
// tool keeps; a longer one is shortened to n characters, the last being
// [DescriptionMarker]. n = 0 means [MaxDescription]; n < 0 means no limit.
func WithMaxDescription(n int) RemoteOption {
	return remoteOption(func(c *remoteConfig) { c.maxDescription = n })
}

// RefuseLongDescriptions makes a description over the limit an error
// wrapping [ErrLongDescription] (naming the tool) instead of shortening it.
func RefuseLongDescriptions() RemoteOption {
	return remoteOption(func(c *remoteConfig) { c.refuseLong = true })
}

// WithRefreshTimeout bounds the tools/list that a
// notifications/tools/list_changed starts. d <= 0 means
// [DefaultRefreshTimeout].
func WithRefreshTimeout(d time.Duration) RemoteOption {
	return remoteOption(func(c *remoteConfig) { c.refreshTimeout = d })
}

// WithToolOptions adds define options to every remote tool, after the
// name, description and title [Remote] sets: define.WithMaxOutputBytes,
// define.WithMaxArgBytes, define.WithStrict(false), the schema limits of
// define.NewTool. A define.WithName among them is ignored.
func WithToolOptions(opts ...define.Option) RemoteOption {
	return remoteOption(func(c *remoteConfig) { c.toolOpts = append(c.toolOpts, opts...) })
}

// Defaults of [ListLimits], sized for real servers: the largest public
// server the project checked (GitHub's) lists 117 tools in about 140 KB
// of JSON, so each default leaves ample room.
const (
	DefaultMaxTools     = 1000     // tools in one listing
	DefaultMaxPages     = 100      // tools/list requests in one listing
	DefaultMaxListBytes = 16 << 20 // 16 MiB: the tools as JSON, with the cursors
)

// ListLimits bound one listing of a server's tools: every tools/list page
// that [NewRemote], [RemoteTools] or [Remote.Refresh] requests. A listing
// past a bound fails with an error wrapping [ErrListLimit] as soon as the
// bound is passed, whatever the context's deadline: a server that
// answers every page with a new cursor cannot keep the client listing.
// For each field, 0 means its default and a negative value no bound.
type ListLimits struct {
	// MaxTools bounds the tools listed, all pages together
	// (DefaultMaxTools).
	MaxTools int
	// MaxPages bounds the tools/list requests (DefaultMaxPages).
	MaxPages int
	// MaxBytes bounds the size of the listing: each tool as JSON (as the
	// SDK decoded it, encoded again) and each cursor
	// (DefaultMaxListBytes).
	MaxBytes int
}

// resolved returns l with the defaults in place of zeros.
func (l ListLimits) resolved() ListLimits {
	if l.MaxTools == 0 {
		l.MaxTools = DefaultMaxTools
	}
	if l.MaxPages == 0 {
		l.MaxPages = DefaultMaxPages
	}
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultMaxListBytes
	}
	return l
}

// ErrListLimit is wrapped by the error of a listing (of [NewRemote],
// [RemoteTools], [Remote.Refresh]) that passed a bound of its
// [ListLimits]; the error names the bound.
var ErrListLimit = errors.New("tnmcp: tools/list over its limit")

// ErrCursorRepeated is wrapped by the error of a listing whose server
// answered a page with a cursor it had already given in that listing:
// following it would list the same pages forever.
var ErrCursorRepeated = errors.New("tnmcp: tools/list repeated a cursor")

// WithListLimits sets the bounds of each listing of the server's tools;
// see [ListLimits].
func WithListLimits(l ListLimits) RemoteOption {
	return remoteOption(func(c *remoteConfig) { c.limits = l })
}

// SkippedTool is a tool of a server's listing that [Remote] left out, and
// why: its input schema is not one define.NewTool accepts (a root that is
// not an object, a subschema that is neither an object nor a boolean,
// over the schema limits given with [WithToolOptions], ...). The server's
// other tools load without it.
type SkippedTool struct {
	Remote string // the tool's name on the server
	Err    error  // what is wrong with it, naming the server and the tool
}

// OnSkip calls f for each tool that a listing leaves out (see
// [SkippedTool]), on the goroutine that lists: the caller's for
// [NewRemote], [RemoteTools] and [Remote.Refresh], a background one for
// the refresh a notification starts. [Remote.Skipped] gives the same
// tools after the fact.
func OnSkip(f func(SkippedTool)) RemoteOption {
	return remoteOption(func(c *remoteConfig) { c.onSkip = f })
}

// Name is one remote tool's two names: Remote, as the server lists it and
// as tools/call sends it, and Tool, the toolnexus tool's name, the one
// providers see and models call.
type Name struct {
	Remote string
	Tool   string
}

// Remote holds the tools of one connected MCP client session as
// [define.Tool] values, so that one toolnexus.Toolkit holds local and
// remote tools and renders them for every provider. Each tool is made with
// define.NewTool from the remote input schema; its handler sends
// tools/call to the server with the call's context, so cancelling the
// context (Toolkit.Run's per-call timeout, say) cancels the remote call,
// and turns the answer into a define.Result (see [RemoteResult]).
//
// Names are made valid for every provider (define.ValidateName's
// ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$): a name that is valid stays as it is
// (after [WithPrefix]); in another, each run of characters outside the set
// becomes one "_", a leading digit or "-" gets a "_" before it, and a name
// over 64 bytes is cut and ends in "_" and six hex digits of a hash of the
// remote name. A mapped name that another tool already has gets the hash
// suffix too: names that were valid keep theirs, and among mapped names
// the remote names are taken in sorted order, so the mapping depends only
// on the set of remote names, never on the listing's order. [Remote.Names],
// [Remote.ToolName] and [Remote.RemoteName] give the mapping; the call
// always sends the remote name. Root property keys that Anthropic and
// Bedrock refuse (outside ^[a-zA-Z0-9_.-]{1,64}$: spaces, non-ASCII) are
// mapped the same way, in "properties" and "required", and the call's
// arguments get their remote keys back (values untouched); keys of nested
// objects are not mapped.
//
// Descriptions longer than [MaxDescription] characters are shortened (see
// [WithMaxDescription], [RefuseLongDescriptions]); the title is the tool's
// title, or its annotations' title.
//
// A listing is bounded ([ListLimits]: by default 1,000 tools, 100 pages
// and 16 MiB) and fails on a cursor it already followed. A tool that
// define.NewTool refuses (a bad input schema) is left out, and the others
// load: [Remote.Skipped] and [OnSkip] report it.
//
// The set is refreshed when the server sends
// notifications/tools/list_changed, if the client was made with
// [ToolListChanged] as its ClientOptions.ToolListChangedHandler (or a
// handler that calls it): the Remote lists the tools again in the
// background, and [Remote.Changed] then receives a value. Build a new
// Toolkit from [Remote.Tools] then; a tool of an old Toolkit that the
// server no longer has answers with the server's error.
//
// Limits of the go-sdk client: it decodes schemas and structuredContent
// into Go maps before this package sees them, so object keys come out
// sorted (the remote properties' order is lost) and integers beyond 2^53
// in them are already rounded to float64. Text content is passed
// unchanged.
type Remote struct {
	session *mcp.ClientSession
	cfg     remoteConfig

	mu       sync.Mutex
	tools    []define.Tool
	names    []Name
	toTool   map[string]string
	toRemote map[string]string
	skipped  []SkippedTool
	cache    map[[sha256.Size]byte]define.Tool // by a hash of the tool name and listed JSON, to keep tools unchanged by a refresh
	err      error                             // of the last background refresh
	running  bool                              // a background refresh is running
	again    bool                              // and another notification came meanwhile
	closed   bool

	changed chan struct{}
	ctx     context.Context // cancelled by Close
	cancel  context.CancelFunc
}

// RemoteTools lists the tools of session and returns them as define.Tool
// values, as [Remote] makes them: a one-time snapshot, for a server whose
// tools do not change. opts are [Remote]'s options.
func RemoteTools(ctx context.Context, session *mcp.ClientSession, opts ...RemoteOption) ([]define.Tool, error) {
	r, err := newRemote(ctx, session, false, opts)
	if err != nil {
		return nil, err
	}
	return r.Tools(), nil
}

// NewRemote lists the tools of session and returns a [Remote] holding
// them, registered for the session's notifications/tools/list_changed
// until [Remote.Close] or the end of the session.
func NewRemote(ctx context.Context, session *mcp.ClientSession, opts ...RemoteOption) (*Remote, error) {
	return newRemote(ctx, session, true, opts)
}

func newRemote(ctx context.Context, session *mcp.ClientSession, watch bool, opts []RemoteOption) (*Remote, error) {
	if session == nil {
		return nil, errors.New("tnmcp: NewRemote: nil session")
	}
	r := &Remote{session: session, changed: make(chan struct{}, 1)}
	for _, o := range opts {
		if o != nil {
			o.applyRemote(&r.cfg)
		}
	}
	if r.cfg.server == "" {
		r.cfg.server = "mcp"
		if ir := session.InitializeResult(); ir != nil && ir.ServerInfo != nil && ir.ServerInfo.Name != "" {
			r.cfg.server = ir.ServerInfo.Name
		}
	}
	if r.cfg.maxDescription == 0 {
		r.cfg.maxDescription = MaxDescription
	}
	if r.cfg.refreshTimeout <= 0 {
		r.cfg.refreshTimeout = DefaultRefreshTimeout
	}
	r.cfg.limits = r.cfg.limits.resolved()
	r.ctx, r.cancel = context.WithCancel(context.Background())
	if watch {
		// Registered before the first listing, so that a change during
		// it is not missed.
		register(r)
		go func() {
			_ = session.Wait()
			r.Close()
		}()
	}
	if err := r.Refresh(ctx); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Server returns the server's name as error results give it.
func (r *Remote) Server() string { return r.cfg.server }

// Tools returns the remote tools of the last successful listing, in the
// server's order. The slice is a copy.
func (r *Remote) Tools() []define.Tool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]define.Tool(nil), r.tools...)
}

// Names returns the remote and tool name of every tool, in the order of
// [Remote.Tools]. The slice is a copy.
func (r *Remote) Names() []Name {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Name(nil), r.names...)
}

// ToolName returns the tool name of the remote tool named remote.
func (r *Remote) ToolName(remote string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, ok := r.toTool[remote]
	return n, ok
}

// RemoteName returns the remote name of the tool named tool.
func (r *Remote) RemoteName(tool string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, ok := r.toRemote[tool]
	return n, ok
}

// Skipped returns the tools that the last successful listing left out,
// in the server's order (see [SkippedTool]). The slice is a copy.
func (r *Remote) Skipped() []SkippedTool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]SkippedTool(nil), r.skipped...)
}

// Changed receives a value after a refresh that a
// notifications/tools/list_changed started has finished (successfully or
// not: see [Remote.Err]); notifications that come while nobody receives
// are folded into one value.
func (r *Remote) Changed() <-chan struct{} { return r.changed }

// Err returns the error of the last background refresh, nil if it
// succeeded. After an error [Remote.Tools] keeps the previous set.
func (r *Remote) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Close stops following the session's notifications and cancels a
// running background refresh. It does not close the session, and the
// tools keep working while the session lasts.
func (r *Remote) Close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	r.mu.Unlock()
	r.cancel()
	unregister(r)
}

// Refresh lists the server's tools again (every page, within the
// [ListLimits]) and replaces the set. A tool whose listing and name did
// not change is kept as the same define.Tool, so its rendering cache stays
// warm. A tool that define.NewTool refuses is left out (see
// [Remote.Skipped]). On an error the set is unchanged.
func (r *Remote) Refresh(ctx context.Context) error {
	listed, err := r.list(ctx)
	if err != nil {
		return err
	}
	remotes := make([]string, len(listed))
	seen := make(map[string]bool, len(listed))
	for i, l := range listed {
		if seen[l.tool.Name] {
			return fmt.Errorf("tnmcp: server %s: tools/list names %q twice", r.cfg.server, l.tool.Name)
		}
		seen[l.tool.Name] = true
		remotes[i] = l.tool.Name
	}
	toolNames := MapNames(r.cfg.prefix, remotes)

	r.mu.Lock()
	old := r.cache
	r.mu.Unlock()
	tools := make([]define.Tool, 0, len(listed))
	names := make([]Name, 0, len(listed))
	cache := make(map[[sha256.Size]byte]define.Tool, len(listed))
	var skipped []SkippedTool
	var errs []error
	for i, l := range listed {
		if l.err != nil {
			skipped = append(skipped, SkippedTool{Remote: l.tool.Name, Err: fmt.Errorf("tnmcp: server %s: tool %q: %w", r.cfg.server, l.tool.Name, l.err)})
			continue
		}
		key := cacheKey(toolNames[i], l.sum)
		tool, ok := old[key]
		if !ok {
			if tool, err = r.newTool(l.tool, toolNames[i]); err != nil {
				if errors.Is(err, ErrLongDescription) {
					errs = append(errs, err) // refused, as RefuseLongDescriptions asks
				} else {
					skipped = append(skipped, SkippedTool{Remote: l.tool.Name, Err: err})
				}
				continue
			}
		}
		cache[key] = tool
		tools = append(tools, tool)
		names = append(names, Name{Remote: l.tool.Name, Tool: toolNames[i]})
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	toTool := make(map[string]string, len(names))
	toRemote := make(map[string]string, len(names))
	for _, n := range names {
		toTool[n.Remote], toRemote[n.Tool] = n.Tool, n.Remote
	}
	r.mu.Lock()
	r.tools, r.names, r.toTool, r.toRemote, r.cache, r.skipped = tools, names, toTool, toRemote, cache, skipped
	r.mu.Unlock()
	if f := r.cfg.onSkip; f != nil {
		for _, s := range skipped {
			f(s)
		}
	}
	return nil
}

// listedTool is one tool of a listing, with the SHA-256 of its JSON.
type listedTool struct {
	tool *mcp.Tool
	sum  [sha256.Size]byte
	err  error // it could not be encoded
}

// cacheKey is the key of a tool named name whose JSON has the SHA-256
// sum in the refresh cache: a hash, so that the cache keeps 32 bytes of a
// tool however large its listing.
func cacheKey(name string, sum [sha256.Size]byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(sum[:])
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}

// list requests every page of tools/list within the listing's limits and
// returns the tools, each with the hash of its JSON.
func (r *Remote) list(ctx context.Context) ([]listedTool, error) {
	lim := r.cfg.limits
	fail := func(err error) ([]listedTool, error) {
		return nil, fmt.Errorf("tnmcp: server %s: tools/list: %w", r.cfg.server, err)
	}
	var (
		out     []listedTool
		size    int
		cursor  string
		cursors = map[string]bool{}
		h       = sha256.New()
	)
	for page := 1; ; page++ {
		if lim.MaxPages >= 0 && page > lim.MaxPages {
			return fail(fmt.Errorf("%w: more than %d pages (ListLimits.MaxPages)", ErrListLimit, lim.MaxPages))
		}
		res, err := r.session.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			return fail(err)
		}
		for _, t := range res.Tools {
			if t == nil {
				continue
			}
			if lim.MaxTools >= 0 && len(out) == lim.MaxTools {
				return fail(fmt.Errorf("%w: more than %d tools (ListLimits.MaxTools)", ErrListLimit, lim.MaxTools))
			}
			l := listedTool{tool: t}
			n, err := hashJSON(h, t)
			if err != nil {
				l.err = err
			}
			h.Sum(l.sum[:0])
			if size += n; lim.MaxBytes >= 0 && size > lim.MaxBytes {
				return fail(fmt.Errorf("%w: more than %d bytes (ListLimits.MaxBytes)", ErrListLimit, lim.MaxBytes))
			}
			out = append(out, l)
		}
		if res.NextCursor == "" {
			return out, nil
		}
		if size += len(res.NextCursor); lim.MaxBytes >= 0 && size > lim.MaxBytes {
			return fail(fmt.Errorf("%w: more than %d bytes (ListLimits.MaxBytes)", ErrListLimit, lim.MaxBytes))
		}
		if cursors[res.NextCursor] {
			return fail(fmt.Errorf("%w: page %d gives again the cursor of an earlier page", ErrCursorRepeated, page))
		}
		cursors[res.NextCursor] = true
		cursor = res.NextCursor
	}
}

// hashJSON resets h, writes v's JSON to it and returns the JSON's length.
func hashJSON(h hash.Hash, v any) (int, error) {
	h.Reset()
	w := countWriter{w: h}
	err := json.NewEncoder(&w).Encode(v)
	return w.n, err
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += len(p)
	return c.w.Write(p)
}

// newTool makes the define.Tool of the remote tool t, named name.
func (r *Remote) newTool(t *mcp.Tool, name string) (define.Tool, error) {
	label := fmt.Sprintf("tnmcp: server %s: tool %q", r.cfg.server, t.Name)
	schema, err := json.Marshal(t.InputSchema)
	if err != nil {
		return define.Tool{}, fmt.Errorf("%s: input schema: %w", label, err)
	}
	schema = closeNoParameters(schema)
	schema, keys, err := mapPropertyKeys(schema)
	if err != nil {
		return define.Tool{}, fmt.Errorf("%s: input schema: %w", label, err)
	}
	desc := t.Description
	if max := r.cfg.maxDescription; max > 0 && utf8.RuneCountInString(desc) > max {
		if r.cfg.refuseLong {
			return define.Tool{}, fmt.Errorf("%s: %w: %d characters, more than %d", label, ErrLongDescription, utf8.RuneCountInString(desc), max)
		}
		desc = shorten(desc, max)
	}
	title := t.Title
	if title == "" && t.Annotations != nil {
		title = t.Annotations.Title
	}
	opts := append(append([]define.Option(nil), r.cfg.toolOpts...),
		define.WithName(name), define.WithDescription(desc), define.WithTitle(title))
	session, remote, server, maxOutput := r.session, t.Name, r.cfg.server, define.MaxOutputBytes(opts...)
	handler := func(ctx context.Context, args json.RawMessage) (any, error) {
		if keys != nil {
			var err error
			if args, err = renameArgs(args, keys); err != nil {
				return nil, fmt.Errorf("tnmcp: arguments: %w", err)
			}
		}
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: remote, Arguments: args})
		if err != nil {
			return nil, &CallError{Server: server, Tool: remote, Err: err}
		}
		return RemoteResultLimited(server, remote, res, maxOutput), nil
	}
	tool, err := define.NewTool(name, schema, handler, opts...)
	if err != nil {
		return define.Tool{}, fmt.Errorf("%s: %w", label, err)
	}
	return tool, nil
}

// closeNoParameters gives a root schema that declares no parameters
// ("properties": {} and nothing else that admits a property) the
// "additionalProperties": false that a Go struct{} input has, so that
// strict modes, which refuse a free-form object, accept the tool as they
// accept a local tool without arguments. Any other schema is returned as
// it is.
func closeNoParameters(schema []byte) []byte {
	var top map[string]json.RawMessage
	if json.Unmarshal(schema, &top) != nil {
		return schema
	}
	if p, ok := top["properties"]; !ok || strings.Join(strings.Fields(string(p)), "") != "{}" {
		return schema
	}
	for _, k := range []string{"additionalProperties", "patternProperties", "unevaluatedProperties", "propertyNames",
		"$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies"} {
		if _, ok := top[k]; ok {
			return schema
		}
	}
	top["additionalProperties"] = json.RawMessage("false")
	out, err := json.Marshal(top)
	if err != nil {
		return schema
	}
	return out
}

// mapPropertyKeys renames the root properties whose keys a provider
// refuses (spaces, non-ASCII, too long), as names are mapped, in
// "properties" and "required", and returns the renamed schema and the
// map from new keys to remote keys (nil when no key changed). Keys of
// nested objects are left as they are.
func mapPropertyKeys(schema []byte) ([]byte, map[string]string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(schema, &top); err != nil {
		return nil, nil, err
	}
	var props map[string]json.RawMessage
	if raw, ok := top["properties"]; !ok || json.Unmarshal(raw, &props) != nil {
		return schema, nil, nil
	}
	var bad, remotes []string
	for k := range props {
		remotes = append(remotes, k)
		if !names.ValidKey(k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return schema, nil, nil
	}
	sort.Strings(remotes)
	mapped := names.Map("", remotes, names.ValidKey, names.Key)
	toRemote := make(map[string]string, len(bad))
	toLocal := make(map[string]string, len(remotes))
	newProps := make(map[string]json.RawMessage, len(props))
	for i, k := range remotes {
		newProps[mapped[i]] = props[k]
		toLocal[k] = mapped[i]
		if mapped[i] != k {
			toRemote[mapped[i]] = k
		}
	}
	var err error
	if top["properties"], err = json.Marshal(newProps); err != nil {
		return nil, nil, err
	}
	if raw, ok := top["required"]; ok {
		var req []string
		if json.Unmarshal(raw, &req) == nil {
			for i, k := range req {
				if n, ok := toLocal[k]; ok {
					req[i] = n
				}
			}
			if top["required"], err = json.Marshal(req); err != nil {
				return nil, nil, err
			}
		}
	}
	out, err := json.Marshal(top)
	if err != nil {
		return nil, nil, err
	}
	return out, toRemote, nil
}

// renameArgs gives the arguments' renamed keys their remote names back,
// values untouched.
func renameArgs(args json.RawMessage, toRemote map[string]string) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil {
		return nil, err
	}
	renamed := false
	for k, v := range m {
		if r, ok := toRemote[k]; ok {
			delete(m, k)
			m[r] = v
			renamed = true
		}
	}
	if !renamed {
		return args, nil
	}
	return json.Marshal(m)
}

// shorten cuts s to max runes, the last being DescriptionMarker, at a
// space where one is near the end.
func shorten(s string, max int) string {
	keep := max - utf8.RuneCountInString(DescriptionMarker)
	if keep < 0 {
		keep = 0
	}
	end, n := 0, 0
	for i := range s {
		if n == keep {
			end = i
			break
		}
		n++
	}
	cut := s[:end]
	// Break at a word if that loses little (a tenth at most).
	if i := strings.LastIndexAny(cut, " \n\t"); i > 0 && i >= len(cut)-len(cut)/10 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " \n\t") + DescriptionMarker
}

// CallError is the Err of the result of a remote call that did not get an
// answer from the server: the transport failed, the server answered with
// a protocol error (an unknown tool, say), or the call's context ended.
type CallError struct {
	Server string // the server's name
	Tool   string // the remote tool's name
	Err    error  // the SDK's error, or the context's
}

// Error names the server and the tool.
func (e *CallError) Error() string {
	return fmt.Sprintf("mcp server %s: calling %s: %v", e.Server, e.Tool, e.Err)
}

// Unwrap returns the SDK's error.
func (e *CallError) Unwrap() error { return e.Err }

// ToolError is the Err of the result of a remote call that the server
// answered with isError set; Message is the result's text.
type ToolError struct {
	Server  string
	Tool    string
	Message string
}

// Error names the server and the tool and quotes the server's message.
func (e *ToolError) Error() string {
	return fmt.Sprintf("mcp server %s: tool %s failed: %s", e.Server, e.Tool, e.Message)
}

// MapNames returns the tool name of each remote name, with prefix before
// each, as [Remote] maps them: valid names stay, others are made valid,
// and every result is unique and passes define.ValidateName. The result
// depends on the set of names, not their order. remotes must not hold a
// name twice.
func MapNames(prefix string, remotes []string) []string {
	return define.SanitizeNames(prefix, remotes)
}

// The remotes following each session's notifications/tools/list_changed.
var (
	watchMu sync.Mutex
	watched = map[*mcp.ClientSession][]*Remote{}
)

func register(r *Remote) {
	watchMu.Lock()
	defer watchMu.Unlock()
	watched[r.session] = append(watched[r.session], r)
}

func unregister(r *Remote) {
	watchMu.Lock()
	defer watchMu.Unlock()
	list := watched[r.session]
	for i, x := range list {
		if x == r {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(watched, r.session)
		return
	}
	watched[r.session] = list
}

// ToolListChanged is the client's handler of
// notifications/tools/list_changed that keeps the session's [Remote]
// values current: set it as ClientOptions.ToolListChangedHandler, or call
// it from yours.
//
//	client := mcp.NewClient(impl, &mcp.ClientOptions{ToolListChangedHandler: tnmcp.ToolListChanged})
//
// Each Remote of the session lists the tools again in the background,
// within [WithRefreshTimeout], and signals [Remote.Changed] when done.
// ToolListChanged itself does not wait.
func ToolListChanged(_ context.Context, req *mcp.ToolListChangedRequest) {
	if req == nil || req.Session == nil {
		return
	}
	watchMu.Lock()
	list := append([]*Remote(nil), watched[req.Session]...)
	watchMu.Unlock()
	for _, r := range list {
		r.refreshSoon()
	}
}

// refreshSoon starts a background refresh, or, while one runs, asks it to
// run once more when it ends (the notification may have come after its
// listing).
func (r *Remote) refreshSoon() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	if r.running {
		r.again = true
		return
	}
	r.running = true
	go r.refreshLoop()
}

func (r *Remote) refreshLoop() {
	for {
		ctx, cancel := context.WithTimeout(r.ctx, r.cfg.refreshTimeout)
		err := r.Refresh(ctx)
		cancel()
		r.mu.Lock()
		r.err = err
		again := r.again && !r.closed
		r.again = false
		if !again {
			r.running = false
		}
		r.mu.Unlock()
		if !again {
			select {
			case r.changed <- struct{}{}:
			default:
			}
			return
		}
	}
}
