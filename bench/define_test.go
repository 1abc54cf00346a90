package bench

//go:generate go run ./internal/genfresh

import (
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/benchdata"
)

// The define functions define one tool for T the way each library's users
// do, with the benchmarks' handler.

func defineToolnexus[T any]() error {
	_, err := define.DefineTool(Ok[T], define.WithName("search_flights"), define.WithDescription("Search flights."))
	return err
}

func defineEino[T any]() error {
	_, err := DefineEino(Ok[T])
	return err
}

func defineMCPGo[T any]() error {
	// mcp.WithInputSchema prints an inference error and leaves the schema
	// empty rather than returning it.
	if t := DefineMCPGo(Ok[T]); len(t.Tool.RawInputSchema) == 0 {
		return errors.New("mcp-go: no input schema")
	}
	return nil
}

var (
	goSDKServer      = NewGoSDKServer(nil)
	goSDKCacheServer = NewGoSDKServer(mcp.NewSchemaCache())
)

// defineGoSDK is mcp.AddTool on a server (go-sdk has no other public way to
// make a typed tool); it panics on an error.
func defineGoSDK[T any]() error {
	DefineGoSDK(goSDKServer, Ok[T], nil)
	return nil
}

// defineGoSDKCache is mcp.AddTool on a server with the opt-in SchemaCache.
func defineGoSDKCache[T any]() error {
	DefineGoSDK(goSDKCacheServer, Ok[T], nil)
	return nil
}

func defineGenkit[T any]() error {
	DefineGenkit(Ok[T])
	return nil
}

type definer struct {
	name  string
	fresh *[freshPoolSize]func() error // a pool of types never defined before
	again func() error                 // a type already defined
	used  int                          // fresh types used so far
}

var definers = []*definer{
	{name: NameToolnexus, fresh: &freshToolnexus, again: defineToolnexus[benchdata.Args]},
	{name: NameEino, fresh: &freshEino, again: defineEino[ArgsInvopop]},
	{name: NameMCPGo, fresh: &freshMCPGo, again: defineMCPGo[ArgsGoogle]},
	{name: NameGoSDK, fresh: &freshGoSDK, again: defineGoSDK[ArgsGoogle]},
	{name: NameGoSDK + " + SchemaCache", fresh: &freshGoSDKCache, again: defineGoSDKCache[ArgsGoogle]},
	{name: NameGenkit, fresh: &freshGenkit, again: defineGenkit[ArgsInvopop]},
}

// BenchmarkDefine times defining one tool from a typed function:
//
//   - first/*: for a type the library has not seen. Each iteration takes a
//     new type from a generated pool (fresh_gen_test.go), so b.N is bounded
//     by the pool: run with -benchtime=100x and -count=1, one process per
//     sample, as internal/readme does. The nested struct type is shared by
//     the pool, so per-type caches already hold it.
//   - again/*: for a type already defined once.
func BenchmarkDefine(b *testing.B) {
	for _, d := range definers {
		b.Run("first/"+d.name, func(b *testing.B) {
			if d.used+b.N > freshPoolSize {
				b.Skipf("%d fresh types left, %d needed: run with -benchtime=100x -count=1", freshPoolSize-d.used, b.N)
			}
			pool := d.fresh[d.used : d.used+b.N]
			d.used += b.N
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := pool[i](); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, d := range definers {
		b.Run("again/"+d.name, func(b *testing.B) {
			if err := d.again(); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := d.again(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDefiners checks that every library defines the benchmarks' types.
func TestDefiners(t *testing.T) {
	for _, d := range definers {
		if err := d.again(); err != nil {
			t.Errorf("%s: %v", d.name, err)
		}
		if err := d.fresh[freshPoolSize-1](); err != nil {
			t.Errorf("%s (fresh type): %v", d.name, err)
		}
	}
}

// defineRenderToolnexus defines a tool for T and renders it for OpenAI
// as JSON, its first rendering.
func defineRenderToolnexus[T any]() error {
	t, err := define.DefineTool(Ok[T], define.WithName("search_flights"), define.WithDescription("Search flights."))
	if err != nil {
		return err
	}
	tools, err := adapters.ToOpenAI([]define.Tool{t})
	if err != nil {
		return err
	}
	_, err = adapters.AppendJSON(nil, tools)
	return err
}

// BenchmarkDefineDistinct is BenchmarkDefine/first for toolnexus and eino
// on types that share no field type and no tag text (distinct_gen_test.go),
// so that caches keyed by them do not help. Run with -benchtime=24x
// -count=1, one process per sample.
func BenchmarkDefineDistinct(b *testing.B) {
	for _, d := range []struct {
		name string
		pool *[distinctPoolSize]func() error
	}{
		{NameToolnexus, &distinctToolnexus}, {NameEino, &distinctEino},
		// Defining, then the first rendering for OpenAI as JSON: where the
		// work that definitions leave to their first use went.
		{NameToolnexus + "+render", &distinctToolnexusRender},
	} {
		b.Run("first/"+d.name, func(b *testing.B) {
			if b.N > distinctPoolSize {
				b.Skipf("%d distinct types, %d needed: run with -benchtime=%dx -count=1", distinctPoolSize, b.N, distinctPoolSize)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := d.pool[i](); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
