// Package zoo holds Go types that exercise every rule of the canonical
// schema and of the argument decoder: embedding, omitempty and omitzero,
// pointers, slices, arrays, maps, well-known types, recursion, and every
// constraint tag. [Cases] lists the types that are valid tool inputs, so
// that schema, decoder, adapter and conformance tests can iterate over them.
package zoo

import (
	"encoding/json"
	"reflect"
	"strings"
	"time"
)

// Case is one named input type.
type Case struct {
	Name string
	Type reflect.Type
}

// Cases lists the zoo's input types in a fixed order; Name is also the
// golden file's base name.
var Cases = []Case{
	{"empty", reflect.TypeFor[Empty]()},
	{"scalars", reflect.TypeFor[Scalars]()},
	{"no_tags", reflect.TypeFor[NoTags]()},
	{"optional", reflect.TypeFor[Optional]()},
	{"pointers", reflect.TypeFor[Pointers]()},
	{"collections", reflect.TypeFor[Collections]()},
	{"well_known", reflect.TypeFor[WellKnown]()},
	{"embedded", reflect.TypeFor[Embedded]()},
	{"dominance", reflect.TypeFor[Dominance]()},
	{"shared_struct", reflect.TypeFor[SharedStruct]()},
	{"node", reflect.TypeFor[Node]()},
	{"mutual", reflect.TypeFor[A]()},
	{"tree_holder", reflect.TypeFor[TreeHolder]()},
	{"constraints", reflect.TypeFor[Constraints]()},
	{"defaults", reflect.TypeFor[Defaults]()},
	{"required_overrides", reflect.TypeFor[RequiredOverrides]()},
	{"text_types", reflect.TypeFor[TextTypes]()},
	{"enum_method", reflect.TypeFor[EnumMethod]()},
	{"pointer_root", reflect.TypeFor[*Scalars]()},
	{"map_root", reflect.TypeFor[map[string]int]()},
	{"any_root", reflect.TypeFor[any]()},
	{"search", reflect.TypeFor[Search]()},
	{"elements", reflect.TypeFor[Elements]()},
	{"peer_tags", reflect.TypeFor[PeerTags]()},
}

// Empty is the input of a tool without arguments.
type Empty struct{}

// Scalars has one field of every scalar kind.
type Scalars struct {
	Bool    bool    `json:"bool"`
	Int     int     `json:"int"`
	Int8    int8    `json:"int8"`
	Int16   int16   `json:"int16"`
	Int32   int32   `json:"int32"`
	Int64   int64   `json:"int64"`
	Uint    uint    `json:"uint"`
	Uint8   uint8   `json:"uint8"`
	Uint16  uint16  `json:"uint16"`
	Uint32  uint32  `json:"uint32"`
	Uint64  uint64  `json:"uint64"`
	Float32 float32 `json:"float32"`
	Float64 float64 `json:"float64"`
	String  string  `json:"string"`
}

// NoTags has no struct tags at all: names are the Go field names and every
// field is required; unexported fields are skipped.
type NoTags struct {
	City   string
	Days   int
	Metric bool
	//lint:ignore U1000 the zoo shows that unexported fields are skipped
	private int
}

// Optional shows omitempty, omitzero, json:"-" and json:"-,".
type Optional struct {
	Name    string    `json:"name"`
	Nick    string    `json:"nick,omitempty"`
	Count   int       `json:",omitempty"`
	When    time.Time `json:"when,omitzero"`
	Skipped string    `json:"-"`
	//lint:ignore SA5008 json:"-," names the property "-", as encoding/json does
	Dash string `json:"-,"`
}

// Pointers shows pointer fields: optional and nullable.
type Pointers struct {
	Name   *string           `json:"name"`
	Age    *int              `json:"age" minimum:"0"`
	Color  *string           `json:"color" enum:"red,green"`
	Inner  *Point            `json:"inner"`
	List   *[]string         `json:"list"`
	PtrPtr **bool            `json:"ptr_ptr"`
	Raw    *json.RawMessage  `json:"raw"`
	Any    *any              `json:"any"`
	Items  []*Point          `json:"items"`
	ByName map[string]*Point `json:"by_name"`
}

// Point is a small struct used by several cases.
type Point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Collections has slices, arrays and maps.
type Collections struct {
	Tags     []string          `json:"tags"`
	Points   []Point           `json:"points"`
	Matrix   [][]float64       `json:"matrix"`
	Pair     [2]int            `json:"pair"`
	Counts   map[string]int    `json:"counts"`
	ByID     map[int]Point     `json:"by_id"`
	ByName   map[string]Point  `json:"by_name"`
	Nested   map[string][]bool `json:"nested"`
	Anything []any             `json:"anything"`
}

// WellKnown has the types with a fixed schema.
type WellKnown struct {
	When     time.Time       `json:"when"`
	Data     []byte          `json:"data"`
	Raw      json.RawMessage `json:"raw"`
	Any      any             `json:"any"`
	Interval time.Duration   `json:"interval"`
	Level    Level           `json:"level"`
	Coord    LatLng          `json:"coord"`
}

// Level is a string-kind encoding.TextUnmarshaler.
type Level string

// UnmarshalText accepts any text.
func (l *Level) UnmarshalText(b []byte) error { *l = Level(b); return nil }

// LatLng is a struct that reads itself from text ("lat,lng").
type LatLng struct{ Lat, Lng float64 }

// UnmarshalText parses "lat,lng" loosely (zoo types only need the method).
func (c *LatLng) UnmarshalText(b []byte) error {
	_, _, _ = strings.Cut(string(b), ",")
	return nil
}

// Base is embedded by Embedded.
type Base struct {
	ID      string `json:"id" description:"Identifier."`
	Created int64  `json:"created,omitempty"`
}

// Paging is embedded through a pointer by Embedded.
type Paging struct {
	Limit  int `json:"limit" default:"10"`
	Offset int `json:"offset,omitempty"`
}

// Embedded flattens an embedded struct and an embedded pointer, and keeps
// a tagged embedded struct as a nested property.
type Embedded struct {
	Name string `json:"name"`
	Base
	*Paging
	Point `json:"point"`
	Note  string `json:"note,omitempty"`
}

// Left and Right are embedded side by side by Dominance.
type Left struct {
	Shared string
	Alias  string `json:"Code"`
	Deep   Deep
}

// Right conflicts with Left: both have an untagged Shared at the same depth
// (both dropped), and Right's untagged Code loses to Left's field tagged
// "Code".
type Right struct {
	Shared string
	Code   string
	Only   string `json:"only"`
}

// Deep is a named (not embedded) field of Left.
type Deep struct {
	V int `json:"v"`
}

// Inner is embedded two levels down by Dominance.
type Inner struct {
	Title string `json:"title"`
}

// Middle embeds Inner.
type Middle struct {
	Inner
	Level2 string `json:"level2"`
}

// Dominance exercises encoding/json's rules for conflicting names: the
// shallower field wins (Dominance.Title over Middle.Inner.Title, and
// Dominance.Name over Extra.Name); at equal depth a tagged name wins (Left's
// "Code"); otherwise the names are dropped ("Shared").
type Dominance struct {
	Left
	Right
	Middle
	Title string `json:"title"`
	Name  string
	Extra
}

// Extra has an untagged Name, beaten by Dominance's own (shallower) Name.
type Extra struct {
	Name  string
	Extra string `json:"extra"`
}

// SharedStruct uses one struct type in two fields: both are inlined.
type SharedStruct struct {
	From Point `json:"from"`
	To   Point `json:"to"`
}

// Node is recursive through a slice.
type Node struct {
	Name     string `json:"name"`
	Children []Node `json:"children,omitempty"`
}

// A and B are mutually recursive through pointers.
type A struct {
	Name string `json:"name"`
	B    *B     `json:"b"`
}

// B points back to A.
type B struct {
	Count int `json:"count"`
	A     *A  `json:"a,omitempty" description:"Back to A."`
}

// TreeHolder holds recursive types in a non-recursive root, twice.
type TreeHolder struct {
	Root   Node            `json:"root"`
	Forest []Node          `json:"forest"`
	Maybe  *Node           `json:"maybe"`
	Chain  *A              `json:"chain,omitempty"`
	Index  map[string]Node `json:"index,omitempty"`
}

// Constraints uses every constraint tag.
type Constraints struct {
	Query     string            `json:"query" title:"Query" description:"Search text." minLength:"1" maxLength:"200" pattern:"^[^<>]*$" example:"pizza"`
	Email     string            `json:"email" format:"email" examples:"[\"a@example.com\",\"b@example.com\"]"`
	Day       string            `json:"day" format:"date"`
	Mode      string            `json:"mode" enum:"fast,slow"`
	Unit      string            `json:"unit" enum:"[\"c\",\"f\"]"`
	Stars     int               `json:"stars" enum:"1,2,3,4,5"`
	Version   int               `json:"version" const:"2"`
	Score     float64           `json:"score" minimum:"0" maximum:"1" multipleOf:"0.01"`
	Big       int64             `json:"big" exclusiveMinimum:"0" exclusiveMaximum:"9007199254740993"`
	Small     int8              `json:"small" minimum:"-5"`
	Ratio     float32           `json:"ratio" enum:"[0.5,1.5]"`
	Flag      bool              `json:"flag" const:"true"`
	Tags      []string          `json:"tags" minItems:"1" maxItems:"5" uniqueItems:"true"`
	Labels    map[string]string `json:"labels" minProperties:"1" maxProperties:"3"`
	Old       string            `json:"old,omitempty" deprecated:"true"`
	ServerID  string            `json:"server_id,omitempty" readOnly:"true"`
	Secret    string            `json:"secret,omitempty" writeOnly:"true"`
	Host      string            `json:"host" format:"hostname"`
	Addr      string            `json:"addr" format:"ipv4"`
	Addr6     string            `json:"addr6" format:"ipv6"`
	Site      string            `json:"site" format:"uri"`
	ID        string            `json:"id" format:"uuid"`
	At        string            `json:"at" format:"date-time"`
	Clock     string            `json:"clock" format:"time"`
	Nullable  *int              `json:"nullable" enum:"1,2"`
	Described Point             `json:"described" description:"A point."`
}

// Elements constrains every element of its slices and arrays (items.*
// tags) and every value of its maps (values.*).
type Elements struct {
	Emails  []string           `json:"emails" items.format:"email" minItems:"1" maxItems:"3"`
	Codes   [2]string          `json:"codes" items.pattern:"^[A-Z]{2}$"`
	Scores  map[string]int     `json:"scores,omitempty" values.minimum:"0" values.maximum:"10"`
	Grid    [][]int8           `json:"grid,omitempty" items.maxItems:"2" items.items.minimum:"-1"`
	Labels  []*string          `json:"labels,omitempty" items.enum:"red,green"`
	Weights map[string]float64 `json:"weights,omitempty" values.exclusiveMinimum:"0" values.multipleOf:"0.5"`
}

// PeerTags writes its constraints in the tags of other libraries:
// google/jsonschema-go's jsonschema description, invopop/jsonschema's
// key=value list (\\, for a comma in a value) and jsonschema_description,
// and mcp-go's enum=value parts; each is read as the swaggest tag that
// says the same.
type PeerTags struct {
	City  string   `json:"city" jsonschema:"the city, e.g. Paris"`
	Unit  string   `json:"unit,omitempty" jsonschema:"Temperature unit,enum=C,enum=F"`
	Days  int      `json:"days" jsonschema:"minimum=1,maximum=14,description=forecast length in days"`
	Tags  []string `json:"tags,omitempty" jsonschema:"maxItems=3,uniqueItems,minLength=1,example=red" jsonschema_description:"free labels"`
	Ratio float64  `json:"ratio" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1,title=Ratio"`
	Code  string   `json:"code,omitempty" jsonschema:"required,pattern=^[a-z]{1\\,3}$"`
	Level int      `json:"level,omitempty" jsonschema:"enum=1,enum=2,enum=3,default=2"`
}

// Defaults has a default on every kind; a default makes a field optional.
type Defaults struct {
	Units   string         `json:"units" default:"metric" enum:"metric,imperial"`
	Days    int            `json:"days" default:"3" minimum:"1" maximum:"14"`
	Verbose bool           `json:"verbose" default:"false"`
	Scale   float64        `json:"scale" default:"1.5"`
	Tags    []string       `json:"tags" default:"[\"a\",\"b\"]"`
	Opts    map[string]int `json:"opts" default:"{\"z\":1,\"a\":2}"`
	Where   Point          `json:"where" default:"{\"x\":1,\"y\":2}"`
	Limit   *int           `json:"limit" default:"20"`
}

// RequiredOverrides uses required:"true" and required:"false" (with a
// default too: required:"true" with a default is a define-time error).
type RequiredOverrides struct {
	MustPtr  *string `json:"must_ptr" required:"true"`
	MustOmit string  `json:"must_omit,omitempty" required:"true"`
	MayPlain string  `json:"may_plain" required:"false"`
	Defaults int     `json:"defaults" default:"1" required:"false"`
}

// TextTypes has TextUnmarshaler types in several positions.
type TextTypes struct {
	Level  Level             `json:"level" enum:"debug,info"`
	Coords []LatLng          `json:"coords"`
	ByLvl  map[Level]int     `json:"by_lvl"`
	MaybeL *LatLng           `json:"maybe_l"`
	Blob   Blob              `json:"blob"`
	Raws   []json.RawMessage `json:"raws"`
}

// Blob is a named []byte: still base64 text.
type Blob []byte

// Weekday has an Enum method that swaggest's reflector reads.
type Weekday string

// Enum lists the values of Weekday.
func (Weekday) Enum() []any { return []any{"mon", "tue", "wed"} }

// Priority is an integer type with an Enum method.
type Priority int

// Enum lists the values of Priority.
func (Priority) Enum() []any { return []any{1, 2, 3} }

// Described has a description through swaggest's Described interface.
type Described struct {
	V int `json:"v"`
}

// Description describes Described.
func (Described) Description() string { return "A described type." }

// EnumMethod uses types that expose their enums and description through
// swaggest's interfaces.
type EnumMethod struct {
	Day      Weekday   `json:"day"`
	Priority Priority  `json:"priority"`
	Days     []Weekday `json:"days"`
	Info     Described `json:"info"`
	Override Weekday   `json:"override" enum:"sat,sun"`
	MaybeDay *Weekday  `json:"maybe_day"`
}

// Search is a realistic tool input.
type Search struct {
	Query   string   `json:"query" description:"What to look for." minLength:"1"`
	Filters *Filters `json:"filters,omitempty"`
	Limit   int      `json:"limit,omitempty" minimum:"1" maximum:"50" default:"10"`
}

// Filters narrows a Search.
type Filters struct {
	Since    time.Time `json:"since,omitzero"`
	Kinds    []string  `json:"kinds,omitempty" maxItems:"3"`
	MaxStops *int      `json:"max_stops" minimum:"0"`
}

// Mixed is a new user's agent tool input: a map, an untyped value, a
// recursive type, a time and bytes in one struct. It is not in [Cases]: the
// tests of the default Gemini rendering use it on its own.
type Mixed struct {
	Labels  map[string]string `json:"labels"`
	Payload any               `json:"payload,omitempty"`
	Tree    *MixedNode        `json:"tree,omitempty"`
	At      time.Time         `json:"at"`
	Blob    []byte            `json:"blob,omitempty"`
}

// MixedNode is Mixed's recursive type.
type MixedNode struct {
	Name string       `json:"name"`
	Kids []*MixedNode `json:"kids,omitempty"`
}
