module github.com/toolnexus/toolnexus

go 1.24

require (
	github.com/google/go-cmp v0.7.0
	github.com/swaggest/jsonschema-go v0.3.74
)

require github.com/swaggest/refl v1.3.0 // indirect
