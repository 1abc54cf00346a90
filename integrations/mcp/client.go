package tnmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	cache    map[string]define.Tool // by tool name and listed JSON, to keep tools unchanged by a refresh
	err      error                  // of the last background refresh
	running  bool                   // a background refresh is running
	again    bool                   // and another notification came meanwhile
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

// Refresh lists the server's tools again (every page) and replaces the
// set. A tool whose listing and name did not change is kept as the same
// define.Tool, so its rendering cache stays warm. On an error the set is
// unchanged.
func (r *Remote) Refresh(ctx context.Context) error {
	var listed []*mcp.Tool
	for t, err := range r.session.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("tnmcp: server %s: tools/list: %w", r.cfg.server, err)
		}
		if t != nil {
			listed = append(listed, t)
		}
	}
	remotes := make([]string, len(listed))
	seen := make(map[string]bool, len(listed))
	for i, t := range listed {
		if seen[t.Name] {
			return fmt.Errorf("tnmcp: server %s: tools/list names %q twice", r.cfg.server, t.Name)
		}
		seen[t.Name] = true
		remotes[i] = t.Name
	}
	toolNames := MapNames(r.cfg.prefix, remotes)

	r.mu.Lock()
	old := r.cache
	r.mu.Unlock()
	tools := make([]define.Tool, len(listed))
	cache := make(map[string]define.Tool, len(listed))
	var errs []error
	for i, t := range listed {
		key, err := json.Marshal(t)
		if err != nil {
			errs = append(errs, fmt.Errorf("tnmcp: server %s: tool %q: %w", r.cfg.server, t.Name, err))
			continue
		}
		k := toolNames[i] + "\x00" + string(key)
		if tool, ok := old[k]; ok {
			tools[i], cache[k] = tool, tool
			continue
		}
		tool, err := r.newTool(t, toolNames[i])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		tools[i], cache[k] = tool, tool
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	names := make([]Name, len(listed))
	toTool := make(map[string]string, len(listed))
	toRemote := make(map[string]string, len(listed))
	for i, t := range listed {
		names[i] = Name{Remote: t.Name, Tool: toolNames[i]}
		toTool[t.Name], toRemote[toolNames[i]] = toolNames[i], t.Name
	}
	r.mu.Lock()
	r.tools, r.names, r.toTool, r.toRemote, r.cache = tools, names, toTool, toRemote, cache
	r.mu.Unlock()
	return nil
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
	session, remote, server := r.session, t.Name, r.cfg.server
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
		return RemoteResult(server, remote, res), nil
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

// RemoteResult converts the answer of tools/call to the remote tool named
// tool of the server named server to a define.Result:
//
//   - the text blocks, joined by newlines, are Output; a text resource
//     embedded in the result adds a line naming it and then its text;
//   - images, audio, binary embedded resources and resource links add a
//     one-line note naming the kind, MIME type, size and URI
//     ("[image: image/png, 1,024 bytes]"): define.Result carries text and
//     a value only, so providers' image results are not carried yet;
//   - structuredContent becomes Value, and Output is its JSON when the
//     result has no other content;
//   - isError sets IsError, with the text as Output and a [*ToolError] as
//     Err.
func RemoteResult(server, tool string, res *mcp.CallToolResult) define.Result {
	if res == nil {
		return define.Result{Output: fmt.Sprintf("mcp server %s: tool %s returned no result", server, tool), IsError: true,
			Err: &CallError{Server: server, Tool: tool, Err: errors.New("no result")}}
	}
	var b strings.Builder
	line := func(s string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			line(c.Text)
		case *mcp.ImageContent:
			line(mediaNote("image", c.MIMEType, len(c.Data)))
		case *mcp.AudioContent:
			line(mediaNote("audio", c.MIMEType, len(c.Data)))
		case *mcp.ResourceLink:
			note := "[resource link: " + c.URI
			if c.MIMEType != "" {
				note += ", " + c.MIMEType
			}
			if c.Size != nil {
				note += ", " + bytesText(int(*c.Size))
			}
			line(note + "]")
		case *mcp.EmbeddedResource:
			rc := c.Resource
			if rc == nil {
				line("[resource]")
				continue
			}
			mime := rc.MIMEType
			if mime == "" {
				mime = "no MIME type"
			}
			if rc.Blob != nil || rc.Text == "" {
				line(fmt.Sprintf("[resource %s: %s, %s]", rc.URI, mime, bytesText(len(rc.Blob))))
				continue
			}
			line(fmt.Sprintf("[resource %s: %s, %s of text]", rc.URI, mime, bytesText(len(rc.Text))))
			line(rc.Text)
		case nil:
		default:
			line(fmt.Sprintf("[%T content]", c))
		}
	}
	text := b.String()
	if res.IsError {
		if text == "" {
			text = "the tool failed without a message"
		}
		return define.Result{Output: text, IsError: true, Err: &ToolError{Server: server, Tool: tool, Message: text}}
	}
	out := define.Result{Output: text}
	if res.StructuredContent != nil {
		out.Value = res.StructuredContent
		if len(res.Content) == 0 {
			data, err := json.Marshal(res.StructuredContent)
			if err != nil {
				return define.Result{Output: fmt.Sprintf("mcp server %s: tool %s: structuredContent: %v", server, tool, err), IsError: true,
					Err: &CallError{Server: server, Tool: tool, Err: err}}
			}
			out.Output = string(data)
		}
	}
	return out
}

func mediaNote(kind, mime string, n int) string {
	if mime == "" {
		mime = "no MIME type"
	}
	return fmt.Sprintf("[%s: %s, %s]", kind, mime, bytesText(n))
}

func bytesText(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
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
