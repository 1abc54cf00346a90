module github.com/toolnexus/toolnexus/integrations/openai

go 1.26.0

replace github.com/toolnexus/toolnexus => ../..

require (
	github.com/google/go-cmp v0.7.0
	github.com/openai/openai-go/v3 v3.98.0
	github.com/toolnexus/toolnexus v0.0.0-00010101000000-000000000000
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/swaggest/jsonschema-go v0.3.74 // indirect
	github.com/swaggest/refl v1.3.0 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
)
