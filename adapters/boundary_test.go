package adapters_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The boundary inside package adapters (CONTRIBUTING.md, "Adding a
// provider"): a provider's home is the set of files named after it, the
// file that declares a spec listed in homes (registry.go) and every file
// whose name starts with that file's name and "_" (openai.go,
// openai_reply.go, ...); every other file is the core. A core file uses no
// identifier declared in a home file, and a home uses none declared in
// another home: what two homes share is in the core, and the core reaches a
// home only through its spec. The one exception is the registration itself:
// the elements of the homes list.

func TestBoundary(t *testing.T) {
	got, err := boundaryViolations(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range got {
		t.Errorf("%s (move what both use into a core file, or reach the home through its spec)", v)
	}
}

// TestBoundaryCatches holds boundaryViolations to the violations planted in
// a small package of the same layout (testdata/boundary): a core file
// using a home's function, method, type, field and constant, a home using
// another home's, a file whose name only begins like a home's, and the
// uses that are allowed (the registration, a home's own files, the core,
// a local name that shadows a home's, test files).
func TestBoundaryCatches(t *testing.T) {
	got, err := boundaryViolations(filepath.Join("testdata", "boundary"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"alpha_reply.go uses betaHelper, declared in beta.go (home beta)",
		"alphabet.go uses alphaHelper, declared in alpha.go (home alpha)",
		"core.go uses betaHelper, declared in beta.go (home beta)",
		"core.go uses betaLimit, declared in beta_limits.go (home beta)",
		"core.go uses betaMethod, declared in beta.go (home beta)",
		"core.go uses betaNode, declared in beta.go (home beta)",
		"core.go uses count, declared in beta.go (home beta)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("boundaryViolations(testdata/boundary) (-want +got):\n%s", diff)
	}
}

// boundaryViolations type-checks the package in dir (its files other than
// tests) and returns every use of an identifier across the boundary, as
// "<file> uses <name>, declared in <file> (home <prefix>)", sorted.
func boundaryViolations(dir string) ([]string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	var registry *ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		if filepath.Base(name) == "registry.go" {
			registry = f
		}
	}
	if registry == nil {
		return nil, fmt.Errorf("%s: no registry.go", dir)
	}
	// Only this package's own objects matter: imports are empty packages,
	// and the errors their uses make are ignored.
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	pkg, _ := conf.Check("boundary", fset, files, info)

	// The homes: the file that declares each spec of the homes list names
	// its home.
	homeList := homesList(registry)
	if len(homeList) == 0 {
		return nil, fmt.Errorf("%s: registry.go has no homes list", dir)
	}
	registered := map[*ast.Ident]bool{}
	var prefixes []string
	for _, id := range homeList {
		registered[id] = true
		obj := info.Uses[id]
		if obj == nil {
			return nil, fmt.Errorf("%s: homes lists %s, which is not declared", dir, id.Name)
		}
		prefixes = append(prefixes, strings.TrimSuffix(filepath.Base(fset.Position(obj.Pos()).Filename), ".go"))
	}
	home := func(file string) string {
		best := ""
		for _, p := range prefixes {
			if (file == p+".go" || strings.HasPrefix(file, p+"_")) && len(p) > len(best) {
				best = p
			}
		}
		return best
	}

	var out []string
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || registered[id] || !obj.Pos().IsValid() {
			continue
		}
		useFile := filepath.Base(fset.Position(id.Pos()).Filename)
		declFile := filepath.Base(fset.Position(obj.Pos()).Filename)
		if h := home(declFile); h != "" && h != home(useFile) {
			out = append(out, fmt.Sprintf("%s uses %s, declared in %s (home %s)", useFile, id.Name, declFile, h))
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// homesList returns the elements of the composite literal of the variable
// homes in registry.go.
func homesList(registry *ast.File) []*ast.Ident {
	var ids []*ast.Ident
	ast.Inspect(registry, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "homes" || len(vs.Values) != 1 {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.CompositeLit); ok {
			for _, e := range lit.Elts {
				if id, ok := e.(*ast.Ident); ok {
					ids = append(ids, id)
				}
			}
		}
		return false
	})
	return ids
}

// emptyImporter gives every import as an empty package: the boundary is
// about this package's own identifiers.
type emptyImporter struct{}

func (emptyImporter) Import(path string) (*types.Package, error) {
	p := types.NewPackage(path, path[strings.LastIndexByte(path, '/')+1:])
	p.MarkComplete()
	return p, nil
}

// TestPublicNames holds every registered provider to the same public
// names, X being its tools function's name without "To": ToX, ForX,
// ParseXReply and ReplyLimits.ParseXReply, XResults, NameX, ParseXStream
// when its spec streams, and the root package's forwarder Toolkit.ToX.
func TestPublicNames(t *testing.T) {
	adapters, err := parseDir(".")
	if err != nil {
		t.Fatal(err)
	}
	root, err := parseDir("..")
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, files := range [][]*ast.File{adapters, root} {
		for _, f := range files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					declared[recvPrefix(d)+d.Name.Name] = true
				case *ast.GenDecl:
					for _, s := range d.Specs {
						if vs, ok := s.(*ast.ValueSpec); ok {
							for _, n := range vs.Names {
								declared[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	specs := specLiterals(adapters)
	var registry *ast.File
	for _, f := range adapters {
		if homesList(f) != nil {
			registry = f
		}
	}
	if registry == nil {
		t.Fatal("no homes list")
	}
	for _, id := range homesList(registry) {
		lit := specs[id.Name]
		if lit == nil {
			t.Errorf("%s: no spec literal", id.Name)
			continue
		}
		fn, streams := "", false
		for _, e := range lit.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			switch key := kv.Key.(*ast.Ident); key.Name {
			case "funcName":
				if bl, ok := kv.Value.(*ast.BasicLit); ok {
					fn = strings.Trim(bl.Value, `"`)
				}
			case "stream":
				streams = true
			}
		}
		x, ok := strings.CutPrefix(fn, "To")
		if !ok {
			t.Errorf("%s: funcName %q does not start with To", id.Name, fn)
			continue
		}
		want := []string{"To" + x, "For" + x, "Parse" + x + "Reply", "ReplyLimits.Parse" + x + "Reply", x + "Results", "Name" + x, "Toolkit.To" + x}
		if streams {
			want = append(want, "Parse"+x+"Stream")
		}
		for _, name := range want {
			if !declared[name] {
				t.Errorf("provider %s (%s) has no %s", x, id.Name, name)
			}
		}
	}
}

// parseDir parses the Go files of dir other than tests.
func parseDir(dir string) ([]*ast.File, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// recvPrefix is "T." for a method of T or *T, "" for a function.
func recvPrefix(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "."
	}
	return ""
}

// specLiterals returns the composite literal of every package-level
// variable initialised with &spec{...}, by name.
func specLiterals(files []*ast.File) map[string]*ast.CompositeLit {
	out := map[string]*ast.CompositeLit{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Names) != 1 || len(vs.Values) != 1 {
					continue
				}
				if u, ok := vs.Values[0].(*ast.UnaryExpr); ok && u.Op == token.AND {
					if lit, ok := u.X.(*ast.CompositeLit); ok {
						if id, ok := lit.Type.(*ast.Ident); ok && id.Name == "spec" {
							out[vs.Names[0].Name] = lit
						}
					}
				}
			}
		}
	}
	return out
}
