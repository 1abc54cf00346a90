package bench

// Distinct types for BenchmarkDefineDistinct: unlike the `type freshN
// benchdata.Args` pool, every type here has its own nested struct type and
// its own tag values (patterns, bounds, enums, lengths, descriptions), so
// that no cache keyed by a field type or a tag's text (parsed rules,
// compiled patterns, hook answers) is hit across them. Written out once by
// a script; edit the pattern of one entry to change them all.

import "time"

const distinctPoolSize = 24

type distinctFilters00 struct {
	MaxStops00   int      `json:"max_stops" minimum:"0" maximum:"3"`
	Airlines00   []string `json:"airlines" maxItems:"5"`
	Refundable00 bool     `json:"refundable"`
}

type distinctArgs00 struct {
	Origin00      string            `json:"origin" pattern:"^[A-Z]{3}$" description:"departure airport, variant 1"`
	Destination00 string            `json:"destination" pattern:"^[A-Z]{3}-1$" description:"arrival airport, variant 1"`
	Date00        time.Time         `json:"date" description:"departure time 1, RFC 3339"`
	Passengers00  int               `json:"passengers" minimum:"1" maximum:"10"`
	Cabin00       string            `json:"cabin" enum:"economy1,premium1,business,first"`
	MaxPrice00    *float64          `json:"max_price" exclusiveMinimum:"0.1" description:"upper price limit 1"`
	Filters00     distinctFilters00 `json:"filters"`
	Tags00        []string          `json:"tags"`
	Note00        string            `json:"note,omitempty" maxLength:"201"`
}

type distinctEinoFilters00 struct {
	MaxStops00   int      `json:"max_stops" jsonschema:"minimum=0,maximum=3"`
	Airlines00   []string `json:"airlines" jsonschema:"maxItems=5"`
	Refundable00 bool     `json:"refundable"`
}

type distinctEinoArgs00 struct {
	Origin00      string                `json:"origin" jsonschema:"pattern=^[A-Z]{3}$" jsonschema_description:"departure airport, variant 1"`
	Destination00 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-1$" jsonschema_description:"arrival airport, variant 1"`
	Date00        time.Time             `json:"date" jsonschema_description:"departure time 1, RFC 3339"`
	Passengers00  int                   `json:"passengers" jsonschema:"minimum=1,maximum=10"`
	Cabin00       string                `json:"cabin" jsonschema:"enum=economy1,enum=premium1,enum=business,enum=first"`
	MaxPrice00    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.1" jsonschema_description:"upper price limit 1"`
	Filters00     distinctEinoFilters00 `json:"filters"`
	Tags00        []string              `json:"tags"`
	Note00        string                `json:"note,omitempty" jsonschema:"maxLength=201"`
}

type distinctFilters01 struct {
	MaxStops01   int      `json:"max_stops" minimum:"0" maximum:"4"`
	Airlines01   []string `json:"airlines" maxItems:"6"`
	Refundable01 bool     `json:"refundable"`
}

type distinctArgs01 struct {
	Origin01      string            `json:"origin" pattern:"^[A-Z]{4}$" description:"departure airport, variant 2"`
	Destination01 string            `json:"destination" pattern:"^[A-Z]{3}-2$" description:"arrival airport, variant 2"`
	Date01        time.Time         `json:"date" description:"departure time 2, RFC 3339"`
	Passengers01  int               `json:"passengers" minimum:"2" maximum:"11"`
	Cabin01       string            `json:"cabin" enum:"economy2,premium2,business,first"`
	MaxPrice01    *float64          `json:"max_price" exclusiveMinimum:"0.2" description:"upper price limit 2"`
	Filters01     distinctFilters01 `json:"filters"`
	Tags01        []string          `json:"tags"`
	Note01        string            `json:"note,omitempty" maxLength:"202"`
}

type distinctEinoFilters01 struct {
	MaxStops01   int      `json:"max_stops" jsonschema:"minimum=0,maximum=4"`
	Airlines01   []string `json:"airlines" jsonschema:"maxItems=6"`
	Refundable01 bool     `json:"refundable"`
}

type distinctEinoArgs01 struct {
	Origin01      string                `json:"origin" jsonschema:"pattern=^[A-Z]{4}$" jsonschema_description:"departure airport, variant 2"`
	Destination01 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-2$" jsonschema_description:"arrival airport, variant 2"`
	Date01        time.Time             `json:"date" jsonschema_description:"departure time 2, RFC 3339"`
	Passengers01  int                   `json:"passengers" jsonschema:"minimum=2,maximum=11"`
	Cabin01       string                `json:"cabin" jsonschema:"enum=economy2,enum=premium2,enum=business,enum=first"`
	MaxPrice01    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.2" jsonschema_description:"upper price limit 2"`
	Filters01     distinctEinoFilters01 `json:"filters"`
	Tags01        []string              `json:"tags"`
	Note01        string                `json:"note,omitempty" jsonschema:"maxLength=202"`
}

type distinctFilters02 struct {
	MaxStops02   int      `json:"max_stops" minimum:"0" maximum:"5"`
	Airlines02   []string `json:"airlines" maxItems:"7"`
	Refundable02 bool     `json:"refundable"`
}

type distinctArgs02 struct {
	Origin02      string            `json:"origin" pattern:"^[A-Z]{5}$" description:"departure airport, variant 3"`
	Destination02 string            `json:"destination" pattern:"^[A-Z]{3}-3$" description:"arrival airport, variant 3"`
	Date02        time.Time         `json:"date" description:"departure time 3, RFC 3339"`
	Passengers02  int               `json:"passengers" minimum:"3" maximum:"12"`
	Cabin02       string            `json:"cabin" enum:"economy3,premium3,business,first"`
	MaxPrice02    *float64          `json:"max_price" exclusiveMinimum:"0.3" description:"upper price limit 3"`
	Filters02     distinctFilters02 `json:"filters"`
	Tags02        []string          `json:"tags"`
	Note02        string            `json:"note,omitempty" maxLength:"203"`
}

type distinctEinoFilters02 struct {
	MaxStops02   int      `json:"max_stops" jsonschema:"minimum=0,maximum=5"`
	Airlines02   []string `json:"airlines" jsonschema:"maxItems=7"`
	Refundable02 bool     `json:"refundable"`
}

type distinctEinoArgs02 struct {
	Origin02      string                `json:"origin" jsonschema:"pattern=^[A-Z]{5}$" jsonschema_description:"departure airport, variant 3"`
	Destination02 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-3$" jsonschema_description:"arrival airport, variant 3"`
	Date02        time.Time             `json:"date" jsonschema_description:"departure time 3, RFC 3339"`
	Passengers02  int                   `json:"passengers" jsonschema:"minimum=3,maximum=12"`
	Cabin02       string                `json:"cabin" jsonschema:"enum=economy3,enum=premium3,enum=business,enum=first"`
	MaxPrice02    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.3" jsonschema_description:"upper price limit 3"`
	Filters02     distinctEinoFilters02 `json:"filters"`
	Tags02        []string              `json:"tags"`
	Note02        string                `json:"note,omitempty" jsonschema:"maxLength=203"`
}

type distinctFilters03 struct {
	MaxStops03   int      `json:"max_stops" minimum:"0" maximum:"6"`
	Airlines03   []string `json:"airlines" maxItems:"8"`
	Refundable03 bool     `json:"refundable"`
}

type distinctArgs03 struct {
	Origin03      string            `json:"origin" pattern:"^[A-Z]{2}$" description:"departure airport, variant 4"`
	Destination03 string            `json:"destination" pattern:"^[A-Z]{3}-4$" description:"arrival airport, variant 4"`
	Date03        time.Time         `json:"date" description:"departure time 4, RFC 3339"`
	Passengers03  int               `json:"passengers" minimum:"4" maximum:"13"`
	Cabin03       string            `json:"cabin" enum:"economy4,premium4,business,first"`
	MaxPrice03    *float64          `json:"max_price" exclusiveMinimum:"0.4" description:"upper price limit 4"`
	Filters03     distinctFilters03 `json:"filters"`
	Tags03        []string          `json:"tags"`
	Note03        string            `json:"note,omitempty" maxLength:"204"`
}

type distinctEinoFilters03 struct {
	MaxStops03   int      `json:"max_stops" jsonschema:"minimum=0,maximum=6"`
	Airlines03   []string `json:"airlines" jsonschema:"maxItems=8"`
	Refundable03 bool     `json:"refundable"`
}

type distinctEinoArgs03 struct {
	Origin03      string                `json:"origin" jsonschema:"pattern=^[A-Z]{2}$" jsonschema_description:"departure airport, variant 4"`
	Destination03 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-4$" jsonschema_description:"arrival airport, variant 4"`
	Date03        time.Time             `json:"date" jsonschema_description:"departure time 4, RFC 3339"`
	Passengers03  int                   `json:"passengers" jsonschema:"minimum=4,maximum=13"`
	Cabin03       string                `json:"cabin" jsonschema:"enum=economy4,enum=premium4,enum=business,enum=first"`
	MaxPrice03    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.4" jsonschema_description:"upper price limit 4"`
	Filters03     distinctEinoFilters03 `json:"filters"`
	Tags03        []string              `json:"tags"`
	Note03        string                `json:"note,omitempty" jsonschema:"maxLength=204"`
}

type distinctFilters04 struct {
	MaxStops04   int      `json:"max_stops" minimum:"0" maximum:"7"`
	Airlines04   []string `json:"airlines" maxItems:"9"`
	Refundable04 bool     `json:"refundable"`
}

type distinctArgs04 struct {
	Origin04      string            `json:"origin" pattern:"^[A-Z]{3}$" description:"departure airport, variant 5"`
	Destination04 string            `json:"destination" pattern:"^[A-Z]{3}-5$" description:"arrival airport, variant 5"`
	Date04        time.Time         `json:"date" description:"departure time 5, RFC 3339"`
	Passengers04  int               `json:"passengers" minimum:"5" maximum:"14"`
	Cabin04       string            `json:"cabin" enum:"economy5,premium5,business,first"`
	MaxPrice04    *float64          `json:"max_price" exclusiveMinimum:"0.5" description:"upper price limit 5"`
	Filters04     distinctFilters04 `json:"filters"`
	Tags04        []string          `json:"tags"`
	Note04        string            `json:"note,omitempty" maxLength:"205"`
}

type distinctEinoFilters04 struct {
	MaxStops04   int      `json:"max_stops" jsonschema:"minimum=0,maximum=7"`
	Airlines04   []string `json:"airlines" jsonschema:"maxItems=9"`
	Refundable04 bool     `json:"refundable"`
}

type distinctEinoArgs04 struct {
	Origin04      string                `json:"origin" jsonschema:"pattern=^[A-Z]{3}$" jsonschema_description:"departure airport, variant 5"`
	Destination04 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-5$" jsonschema_description:"arrival airport, variant 5"`
	Date04        time.Time             `json:"date" jsonschema_description:"departure time 5, RFC 3339"`
	Passengers04  int                   `json:"passengers" jsonschema:"minimum=5,maximum=14"`
	Cabin04       string                `json:"cabin" jsonschema:"enum=economy5,enum=premium5,enum=business,enum=first"`
	MaxPrice04    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.5" jsonschema_description:"upper price limit 5"`
	Filters04     distinctEinoFilters04 `json:"filters"`
	Tags04        []string              `json:"tags"`
	Note04        string                `json:"note,omitempty" jsonschema:"maxLength=205"`
}

type distinctFilters05 struct {
	MaxStops05   int      `json:"max_stops" minimum:"0" maximum:"8"`
	Airlines05   []string `json:"airlines" maxItems:"10"`
	Refundable05 bool     `json:"refundable"`
}

type distinctArgs05 struct {
	Origin05      string            `json:"origin" pattern:"^[A-Z]{4}$" description:"departure airport, variant 6"`
	Destination05 string            `json:"destination" pattern:"^[A-Z]{3}-6$" description:"arrival airport, variant 6"`
	Date05        time.Time         `json:"date" description:"departure time 6, RFC 3339"`
	Passengers05  int               `json:"passengers" minimum:"6" maximum:"15"`
	Cabin05       string            `json:"cabin" enum:"economy6,premium6,business,first"`
	MaxPrice05    *float64          `json:"max_price" exclusiveMinimum:"0.6" description:"upper price limit 6"`
	Filters05     distinctFilters05 `json:"filters"`
	Tags05        []string          `json:"tags"`
	Note05        string            `json:"note,omitempty" maxLength:"206"`
}

type distinctEinoFilters05 struct {
	MaxStops05   int      `json:"max_stops" jsonschema:"minimum=0,maximum=8"`
	Airlines05   []string `json:"airlines" jsonschema:"maxItems=10"`
	Refundable05 bool     `json:"refundable"`
}

type distinctEinoArgs05 struct {
	Origin05      string                `json:"origin" jsonschema:"pattern=^[A-Z]{4}$" jsonschema_description:"departure airport, variant 6"`
	Destination05 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-6$" jsonschema_description:"arrival airport, variant 6"`
	Date05        time.Time             `json:"date" jsonschema_description:"departure time 6, RFC 3339"`
	Passengers05  int                   `json:"passengers" jsonschema:"minimum=6,maximum=15"`
	Cabin05       string                `json:"cabin" jsonschema:"enum=economy6,enum=premium6,enum=business,enum=first"`
	MaxPrice05    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.6" jsonschema_description:"upper price limit 6"`
	Filters05     distinctEinoFilters05 `json:"filters"`
	Tags05        []string              `json:"tags"`
	Note05        string                `json:"note,omitempty" jsonschema:"maxLength=206"`
}

type distinctFilters06 struct {
	MaxStops06   int      `json:"max_stops" minimum:"0" maximum:"2"`
	Airlines06   []string `json:"airlines" maxItems:"11"`
	Refundable06 bool     `json:"refundable"`
}

type distinctArgs06 struct {
	Origin06      string            `json:"origin" pattern:"^[A-Z]{5}$" description:"departure airport, variant 7"`
	Destination06 string            `json:"destination" pattern:"^[A-Z]{3}-7$" description:"arrival airport, variant 7"`
	Date06        time.Time         `json:"date" description:"departure time 7, RFC 3339"`
	Passengers06  int               `json:"passengers" minimum:"7" maximum:"16"`
	Cabin06       string            `json:"cabin" enum:"economy7,premium7,business,first"`
	MaxPrice06    *float64          `json:"max_price" exclusiveMinimum:"0.7" description:"upper price limit 7"`
	Filters06     distinctFilters06 `json:"filters"`
	Tags06        []string          `json:"tags"`
	Note06        string            `json:"note,omitempty" maxLength:"207"`
}

type distinctEinoFilters06 struct {
	MaxStops06   int      `json:"max_stops" jsonschema:"minimum=0,maximum=2"`
	Airlines06   []string `json:"airlines" jsonschema:"maxItems=11"`
	Refundable06 bool     `json:"refundable"`
}

type distinctEinoArgs06 struct {
	Origin06      string                `json:"origin" jsonschema:"pattern=^[A-Z]{5}$" jsonschema_description:"departure airport, variant 7"`
	Destination06 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-7$" jsonschema_description:"arrival airport, variant 7"`
	Date06        time.Time             `json:"date" jsonschema_description:"departure time 7, RFC 3339"`
	Passengers06  int                   `json:"passengers" jsonschema:"minimum=7,maximum=16"`
	Cabin06       string                `json:"cabin" jsonschema:"enum=economy7,enum=premium7,enum=business,enum=first"`
	MaxPrice06    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.7" jsonschema_description:"upper price limit 7"`
	Filters06     distinctEinoFilters06 `json:"filters"`
	Tags06        []string              `json:"tags"`
	Note06        string                `json:"note,omitempty" jsonschema:"maxLength=207"`
}

type distinctFilters07 struct {
	MaxStops07   int      `json:"max_stops" minimum:"0" maximum:"3"`
	Airlines07   []string `json:"airlines" maxItems:"12"`
	Refundable07 bool     `json:"refundable"`
}

type distinctArgs07 struct {
	Origin07      string            `json:"origin" pattern:"^[A-Z]{2}$" description:"departure airport, variant 8"`
	Destination07 string            `json:"destination" pattern:"^[A-Z]{3}-8$" description:"arrival airport, variant 8"`
	Date07        time.Time         `json:"date" description:"departure time 8, RFC 3339"`
	Passengers07  int               `json:"passengers" minimum:"8" maximum:"17"`
	Cabin07       string            `json:"cabin" enum:"economy8,premium8,business,first"`
	MaxPrice07    *float64          `json:"max_price" exclusiveMinimum:"0.8" description:"upper price limit 8"`
	Filters07     distinctFilters07 `json:"filters"`
	Tags07        []string          `json:"tags"`
	Note07        string            `json:"note,omitempty" maxLength:"208"`
}

type distinctEinoFilters07 struct {
	MaxStops07   int      `json:"max_stops" jsonschema:"minimum=0,maximum=3"`
	Airlines07   []string `json:"airlines" jsonschema:"maxItems=12"`
	Refundable07 bool     `json:"refundable"`
}

type distinctEinoArgs07 struct {
	Origin07      string                `json:"origin" jsonschema:"pattern=^[A-Z]{2}$" jsonschema_description:"departure airport, variant 8"`
	Destination07 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-8$" jsonschema_description:"arrival airport, variant 8"`
	Date07        time.Time             `json:"date" jsonschema_description:"departure time 8, RFC 3339"`
	Passengers07  int                   `json:"passengers" jsonschema:"minimum=8,maximum=17"`
	Cabin07       string                `json:"cabin" jsonschema:"enum=economy8,enum=premium8,enum=business,enum=first"`
	MaxPrice07    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.8" jsonschema_description:"upper price limit 8"`
	Filters07     distinctEinoFilters07 `json:"filters"`
	Tags07        []string              `json:"tags"`
	Note07        string                `json:"note,omitempty" jsonschema:"maxLength=208"`
}

type distinctFilters08 struct {
	MaxStops08   int      `json:"max_stops" minimum:"0" maximum:"4"`
	Airlines08   []string `json:"airlines" maxItems:"13"`
	Refundable08 bool     `json:"refundable"`
}

type distinctArgs08 struct {
	Origin08      string            `json:"origin" pattern:"^[A-Z]{3}$" description:"departure airport, variant 9"`
	Destination08 string            `json:"destination" pattern:"^[A-Z]{3}-9$" description:"arrival airport, variant 9"`
	Date08        time.Time         `json:"date" description:"departure time 9, RFC 3339"`
	Passengers08  int               `json:"passengers" minimum:"9" maximum:"18"`
	Cabin08       string            `json:"cabin" enum:"economy9,premium9,business,first"`
	MaxPrice08    *float64          `json:"max_price" exclusiveMinimum:"0.9" description:"upper price limit 9"`
	Filters08     distinctFilters08 `json:"filters"`
	Tags08        []string          `json:"tags"`
	Note08        string            `json:"note,omitempty" maxLength:"209"`
}

type distinctEinoFilters08 struct {
	MaxStops08   int      `json:"max_stops" jsonschema:"minimum=0,maximum=4"`
	Airlines08   []string `json:"airlines" jsonschema:"maxItems=13"`
	Refundable08 bool     `json:"refundable"`
}

type distinctEinoArgs08 struct {
	Origin08      string                `json:"origin" jsonschema:"pattern=^[A-Z]{3}$" jsonschema_description:"departure airport, variant 9"`
	Destination08 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-9$" jsonschema_description:"arrival airport, variant 9"`
	Date08        time.Time             `json:"date" jsonschema_description:"departure time 9, RFC 3339"`
	Passengers08  int                   `json:"passengers" jsonschema:"minimum=9,maximum=18"`
	Cabin08       string                `json:"cabin" jsonschema:"enum=economy9,enum=premium9,enum=business,enum=first"`
	MaxPrice08    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.9" jsonschema_description:"upper price limit 9"`
	Filters08     distinctEinoFilters08 `json:"filters"`
	Tags08        []string              `json:"tags"`
	Note08        string                `json:"note,omitempty" jsonschema:"maxLength=209"`
}

type distinctFilters09 struct {
	MaxStops09   int      `json:"max_stops" minimum:"0" maximum:"5"`
	Airlines09   []string `json:"airlines" maxItems:"14"`
	Refundable09 bool     `json:"refundable"`
}

type distinctArgs09 struct {
	Origin09      string            `json:"origin" pattern:"^[A-Z]{4}$" description:"departure airport, variant 10"`
	Destination09 string            `json:"destination" pattern:"^[A-Z]{3}-10$" description:"arrival airport, variant 10"`
	Date09        time.Time         `json:"date" description:"departure time 10, RFC 3339"`
	Passengers09  int               `json:"passengers" minimum:"10" maximum:"19"`
	Cabin09       string            `json:"cabin" enum:"economy10,premium10,business,first"`
	MaxPrice09    *float64          `json:"max_price" exclusiveMinimum:"0.10" description:"upper price limit 10"`
	Filters09     distinctFilters09 `json:"filters"`
	Tags09        []string          `json:"tags"`
	Note09        string            `json:"note,omitempty" maxLength:"210"`
}

type distinctEinoFilters09 struct {
	MaxStops09   int      `json:"max_stops" jsonschema:"minimum=0,maximum=5"`
	Airlines09   []string `json:"airlines" jsonschema:"maxItems=14"`
	Refundable09 bool     `json:"refundable"`
}

type distinctEinoArgs09 struct {
	Origin09      string                `json:"origin" jsonschema:"pattern=^[A-Z]{4}$" jsonschema_description:"departure airport, variant 10"`
	Destination09 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-10$" jsonschema_description:"arrival airport, variant 10"`
	Date09        time.Time             `json:"date" jsonschema_description:"departure time 10, RFC 3339"`
	Passengers09  int                   `json:"passengers" jsonschema:"minimum=10,maximum=19"`
	Cabin09       string                `json:"cabin" jsonschema:"enum=economy10,enum=premium10,enum=business,enum=first"`
	MaxPrice09    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.10" jsonschema_description:"upper price limit 10"`
	Filters09     distinctEinoFilters09 `json:"filters"`
	Tags09        []string              `json:"tags"`
	Note09        string                `json:"note,omitempty" jsonschema:"maxLength=210"`
}

type distinctFilters10 struct {
	MaxStops10   int      `json:"max_stops" minimum:"0" maximum:"6"`
	Airlines10   []string `json:"airlines" maxItems:"15"`
	Refundable10 bool     `json:"refundable"`
}

type distinctArgs10 struct {
	Origin10      string            `json:"origin" pattern:"^[A-Z]{5}$" description:"departure airport, variant 11"`
	Destination10 string            `json:"destination" pattern:"^[A-Z]{3}-11$" description:"arrival airport, variant 11"`
	Date10        time.Time         `json:"date" description:"departure time 11, RFC 3339"`
	Passengers10  int               `json:"passengers" minimum:"11" maximum:"20"`
	Cabin10       string            `json:"cabin" enum:"economy11,premium11,business,first"`
	MaxPrice10    *float64          `json:"max_price" exclusiveMinimum:"0.11" description:"upper price limit 11"`
	Filters10     distinctFilters10 `json:"filters"`
	Tags10        []string          `json:"tags"`
	Note10        string            `json:"note,omitempty" maxLength:"211"`
}

type distinctEinoFilters10 struct {
	MaxStops10   int      `json:"max_stops" jsonschema:"minimum=0,maximum=6"`
	Airlines10   []string `json:"airlines" jsonschema:"maxItems=15"`
	Refundable10 bool     `json:"refundable"`
}

type distinctEinoArgs10 struct {
	Origin10      string                `json:"origin" jsonschema:"pattern=^[A-Z]{5}$" jsonschema_description:"departure airport, variant 11"`
	Destination10 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-11$" jsonschema_description:"arrival airport, variant 11"`
	Date10        time.Time             `json:"date" jsonschema_description:"departure time 11, RFC 3339"`
	Passengers10  int                   `json:"passengers" jsonschema:"minimum=11,maximum=20"`
	Cabin10       string                `json:"cabin" jsonschema:"enum=economy11,enum=premium11,enum=business,enum=first"`
	MaxPrice10    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.11" jsonschema_description:"upper price limit 11"`
	Filters10     distinctEinoFilters10 `json:"filters"`
	Tags10        []string              `json:"tags"`
	Note10        string                `json:"note,omitempty" jsonschema:"maxLength=211"`
}

type distinctFilters11 struct {
	MaxStops11   int      `json:"max_stops" minimum:"0" maximum:"7"`
	Airlines11   []string `json:"airlines" maxItems:"16"`
	Refundable11 bool     `json:"refundable"`
}

type distinctArgs11 struct {
	Origin11      string            `json:"origin" pattern:"^[A-Z]{2}$" description:"departure airport, variant 12"`
	Destination11 string            `json:"destination" pattern:"^[A-Z]{3}-12$" description:"arrival airport, variant 12"`
	Date11        time.Time         `json:"date" description:"departure time 12, RFC 3339"`
	Passengers11  int               `json:"passengers" minimum:"12" maximum:"21"`
	Cabin11       string            `json:"cabin" enum:"economy12,premium12,business,first"`
	MaxPrice11    *float64          `json:"max_price" exclusiveMinimum:"0.12" description:"upper price limit 12"`
	Filters11     distinctFilters11 `json:"filters"`
	Tags11        []string          `json:"tags"`
	Note11        string            `json:"note,omitempty" maxLength:"212"`
}

type distinctEinoFilters11 struct {
	MaxStops11   int      `json:"max_stops" jsonschema:"minimum=0,maximum=7"`
	Airlines11   []string `json:"airlines" jsonschema:"maxItems=16"`
	Refundable11 bool     `json:"refundable"`
}

type distinctEinoArgs11 struct {
	Origin11      string                `json:"origin" jsonschema:"pattern=^[A-Z]{2}$" jsonschema_description:"departure airport, variant 12"`
	Destination11 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-12$" jsonschema_description:"arrival airport, variant 12"`
	Date11        time.Time             `json:"date" jsonschema_description:"departure time 12, RFC 3339"`
	Passengers11  int                   `json:"passengers" jsonschema:"minimum=12,maximum=21"`
	Cabin11       string                `json:"cabin" jsonschema:"enum=economy12,enum=premium12,enum=business,enum=first"`
	MaxPrice11    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.12" jsonschema_description:"upper price limit 12"`
	Filters11     distinctEinoFilters11 `json:"filters"`
	Tags11        []string              `json:"tags"`
	Note11        string                `json:"note,omitempty" jsonschema:"maxLength=212"`
}

type distinctFilters12 struct {
	MaxStops12   int      `json:"max_stops" minimum:"0" maximum:"8"`
	Airlines12   []string `json:"airlines" maxItems:"17"`
	Refundable12 bool     `json:"refundable"`
}

type distinctArgs12 struct {
	Origin12      string            `json:"origin" pattern:"^[A-Z]{3}$" description:"departure airport, variant 13"`
	Destination12 string            `json:"destination" pattern:"^[A-Z]{3}-13$" description:"arrival airport, variant 13"`
	Date12        time.Time         `json:"date" description:"departure time 13, RFC 3339"`
	Passengers12  int               `json:"passengers" minimum:"13" maximum:"22"`
	Cabin12       string            `json:"cabin" enum:"economy13,premium13,business,first"`
	MaxPrice12    *float64          `json:"max_price" exclusiveMinimum:"0.13" description:"upper price limit 13"`
	Filters12     distinctFilters12 `json:"filters"`
	Tags12        []string          `json:"tags"`
	Note12        string            `json:"note,omitempty" maxLength:"213"`
}

type distinctEinoFilters12 struct {
	MaxStops12   int      `json:"max_stops" jsonschema:"minimum=0,maximum=8"`
	Airlines12   []string `json:"airlines" jsonschema:"maxItems=17"`
	Refundable12 bool     `json:"refundable"`
}

type distinctEinoArgs12 struct {
	Origin12      string                `json:"origin" jsonschema:"pattern=^[A-Z]{3}$" jsonschema_description:"departure airport, variant 13"`
	Destination12 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-13$" jsonschema_description:"arrival airport, variant 13"`
	Date12        time.Time             `json:"date" jsonschema_description:"departure time 13, RFC 3339"`
	Passengers12  int                   `json:"passengers" jsonschema:"minimum=13,maximum=22"`
	Cabin12       string                `json:"cabin" jsonschema:"enum=economy13,enum=premium13,enum=business,enum=first"`
	MaxPrice12    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.13" jsonschema_description:"upper price limit 13"`
	Filters12     distinctEinoFilters12 `json:"filters"`
	Tags12        []string              `json:"tags"`
	Note12        string                `json:"note,omitempty" jsonschema:"maxLength=213"`
}

type distinctFilters13 struct {
	MaxStops13   int      `json:"max_stops" minimum:"0" maximum:"2"`
	Airlines13   []string `json:"airlines" maxItems:"18"`
	Refundable13 bool     `json:"refundable"`
}

type distinctArgs13 struct {
	Origin13      string            `json:"origin" pattern:"^[A-Z]{4}$" description:"departure airport, variant 14"`
	Destination13 string            `json:"destination" pattern:"^[A-Z]{3}-14$" description:"arrival airport, variant 14"`
	Date13        time.Time         `json:"date" description:"departure time 14, RFC 3339"`
	Passengers13  int               `json:"passengers" minimum:"14" maximum:"23"`
	Cabin13       string            `json:"cabin" enum:"economy14,premium14,business,first"`
	MaxPrice13    *float64          `json:"max_price" exclusiveMinimum:"0.14" description:"upper price limit 14"`
	Filters13     distinctFilters13 `json:"filters"`
	Tags13        []string          `json:"tags"`
	Note13        string            `json:"note,omitempty" maxLength:"214"`
}

type distinctEinoFilters13 struct {
	MaxStops13   int      `json:"max_stops" jsonschema:"minimum=0,maximum=2"`
	Airlines13   []string `json:"airlines" jsonschema:"maxItems=18"`
	Refundable13 bool     `json:"refundable"`
}

type distinctEinoArgs13 struct {
	Origin13      string                `json:"origin" jsonschema:"pattern=^[A-Z]{4}$" jsonschema_description:"departure airport, variant 14"`
	Destination13 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-14$" jsonschema_description:"arrival airport, variant 14"`
	Date13        time.Time             `json:"date" jsonschema_description:"departure time 14, RFC 3339"`
	Passengers13  int                   `json:"passengers" jsonschema:"minimum=14,maximum=23"`
	Cabin13       string                `json:"cabin" jsonschema:"enum=economy14,enum=premium14,enum=business,enum=first"`
	MaxPrice13    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.14" jsonschema_description:"upper price limit 14"`
	Filters13     distinctEinoFilters13 `json:"filters"`
	Tags13        []string              `json:"tags"`
	Note13        string                `json:"note,omitempty" jsonschema:"maxLength=214"`
}

type distinctFilters14 struct {
	MaxStops14   int      `json:"max_stops" minimum:"0" maximum:"3"`
	Airlines14   []string `json:"airlines" maxItems:"19"`
	Refundable14 bool     `json:"refundable"`
}

type distinctArgs14 struct {
	Origin14      string            `json:"origin" pattern:"^[A-Z]{5}$" description:"departure airport, variant 15"`
	Destination14 string            `json:"destination" pattern:"^[A-Z]{3}-15$" description:"arrival airport, variant 15"`
	Date14        time.Time         `json:"date" description:"departure time 15, RFC 3339"`
	Passengers14  int               `json:"passengers" minimum:"15" maximum:"24"`
	Cabin14       string            `json:"cabin" enum:"economy15,premium15,business,first"`
	MaxPrice14    *float64          `json:"max_price" exclusiveMinimum:"0.15" description:"upper price limit 15"`
	Filters14     distinctFilters14 `json:"filters"`
	Tags14        []string          `json:"tags"`
	Note14        string            `json:"note,omitempty" maxLength:"215"`
}

type distinctEinoFilters14 struct {
	MaxStops14   int      `json:"max_stops" jsonschema:"minimum=0,maximum=3"`
	Airlines14   []string `json:"airlines" jsonschema:"maxItems=19"`
	Refundable14 bool     `json:"refundable"`
}

type distinctEinoArgs14 struct {
	Origin14      string                `json:"origin" jsonschema:"pattern=^[A-Z]{5}$" jsonschema_description:"departure airport, variant 15"`
	Destination14 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-15$" jsonschema_description:"arrival airport, variant 15"`
	Date14        time.Time             `json:"date" jsonschema_description:"departure time 15, RFC 3339"`
	Passengers14  int                   `json:"passengers" jsonschema:"minimum=15,maximum=24"`
	Cabin14       string                `json:"cabin" jsonschema:"enum=economy15,enum=premium15,enum=business,enum=first"`
	MaxPrice14    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.15" jsonschema_description:"upper price limit 15"`
	Filters14     distinctEinoFilters14 `json:"filters"`
	Tags14        []string              `json:"tags"`
	Note14        string                `json:"note,omitempty" jsonschema:"maxLength=215"`
}

type distinctFilters15 struct {
	MaxStops15   int      `json:"max_stops" minimum:"0" maximum:"4"`
	Airlines15   []string `json:"airlines" maxItems:"20"`
	Refundable15 bool     `json:"refundable"`
}

type distinctArgs15 struct {
	Origin15      string            `json:"origin" pattern:"^[A-Z]{2}$" description:"departure airport, variant 16"`
	Destination15 string            `json:"destination" pattern:"^[A-Z]{3}-16$" description:"arrival airport, variant 16"`
	Date15        time.Time         `json:"date" description:"departure time 16, RFC 3339"`
	Passengers15  int               `json:"passengers" minimum:"16" maximum:"25"`
	Cabin15       string            `json:"cabin" enum:"economy16,premium16,business,first"`
	MaxPrice15    *float64          `json:"max_price" exclusiveMinimum:"0.16" description:"upper price limit 16"`
	Filters15     distinctFilters15 `json:"filters"`
	Tags15        []string          `json:"tags"`
	Note15        string            `json:"note,omitempty" maxLength:"216"`
}

type distinctEinoFilters15 struct {
	MaxStops15   int      `json:"max_stops" jsonschema:"minimum=0,maximum=4"`
	Airlines15   []string `json:"airlines" jsonschema:"maxItems=20"`
	Refundable15 bool     `json:"refundable"`
}

type distinctEinoArgs15 struct {
	Origin15      string                `json:"origin" jsonschema:"pattern=^[A-Z]{2}$" jsonschema_description:"departure airport, variant 16"`
	Destination15 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-16$" jsonschema_description:"arrival airport, variant 16"`
	Date15        time.Time             `json:"date" jsonschema_description:"departure time 16, RFC 3339"`
	Passengers15  int                   `json:"passengers" jsonschema:"minimum=16,maximum=25"`
	Cabin15       string                `json:"cabin" jsonschema:"enum=economy16,enum=premium16,enum=business,enum=first"`
	MaxPrice15    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.16" jsonschema_description:"upper price limit 16"`
	Filters15     distinctEinoFilters15 `json:"filters"`
	Tags15        []string              `json:"tags"`
	Note15        string                `json:"note,omitempty" jsonschema:"maxLength=216"`
}

type distinctFilters16 struct {
	MaxStops16   int      `json:"max_stops" minimum:"0" maximum:"5"`
	Airlines16   []string `json:"airlines" maxItems:"21"`
	Refundable16 bool     `json:"refundable"`
}

type distinctArgs16 struct {
	Origin16      string            `json:"origin" pattern:"^[A-Z]{3}$" description:"departure airport, variant 17"`
	Destination16 string            `json:"destination" pattern:"^[A-Z]{3}-17$" description:"arrival airport, variant 17"`
	Date16        time.Time         `json:"date" description:"departure time 17, RFC 3339"`
	Passengers16  int               `json:"passengers" minimum:"17" maximum:"26"`
	Cabin16       string            `json:"cabin" enum:"economy17,premium17,business,first"`
	MaxPrice16    *float64          `json:"max_price" exclusiveMinimum:"0.17" description:"upper price limit 17"`
	Filters16     distinctFilters16 `json:"filters"`
	Tags16        []string          `json:"tags"`
	Note16        string            `json:"note,omitempty" maxLength:"217"`
}

type distinctEinoFilters16 struct {
	MaxStops16   int      `json:"max_stops" jsonschema:"minimum=0,maximum=5"`
	Airlines16   []string `json:"airlines" jsonschema:"maxItems=21"`
	Refundable16 bool     `json:"refundable"`
}

type distinctEinoArgs16 struct {
	Origin16      string                `json:"origin" jsonschema:"pattern=^[A-Z]{3}$" jsonschema_description:"departure airport, variant 17"`
	Destination16 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-17$" jsonschema_description:"arrival airport, variant 17"`
	Date16        time.Time             `json:"date" jsonschema_description:"departure time 17, RFC 3339"`
	Passengers16  int                   `json:"passengers" jsonschema:"minimum=17,maximum=26"`
	Cabin16       string                `json:"cabin" jsonschema:"enum=economy17,enum=premium17,enum=business,enum=first"`
	MaxPrice16    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.17" jsonschema_description:"upper price limit 17"`
	Filters16     distinctEinoFilters16 `json:"filters"`
	Tags16        []string              `json:"tags"`
	Note16        string                `json:"note,omitempty" jsonschema:"maxLength=217"`
}

type distinctFilters17 struct {
	MaxStops17   int      `json:"max_stops" minimum:"0" maximum:"6"`
	Airlines17   []string `json:"airlines" maxItems:"22"`
	Refundable17 bool     `json:"refundable"`
}

type distinctArgs17 struct {
	Origin17      string            `json:"origin" pattern:"^[A-Z]{4}$" description:"departure airport, variant 18"`
	Destination17 string            `json:"destination" pattern:"^[A-Z]{3}-18$" description:"arrival airport, variant 18"`
	Date17        time.Time         `json:"date" description:"departure time 18, RFC 3339"`
	Passengers17  int               `json:"passengers" minimum:"18" maximum:"27"`
	Cabin17       string            `json:"cabin" enum:"economy18,premium18,business,first"`
	MaxPrice17    *float64          `json:"max_price" exclusiveMinimum:"0.18" description:"upper price limit 18"`
	Filters17     distinctFilters17 `json:"filters"`
	Tags17        []string          `json:"tags"`
	Note17        string            `json:"note,omitempty" maxLength:"218"`
}

type distinctEinoFilters17 struct {
	MaxStops17   int      `json:"max_stops" jsonschema:"minimum=0,maximum=6"`
	Airlines17   []string `json:"airlines" jsonschema:"maxItems=22"`
	Refundable17 bool     `json:"refundable"`
}

type distinctEinoArgs17 struct {
	Origin17      string                `json:"origin" jsonschema:"pattern=^[A-Z]{4}$" jsonschema_description:"departure airport, variant 18"`
	Destination17 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-18$" jsonschema_description:"arrival airport, variant 18"`
	Date17        time.Time             `json:"date" jsonschema_description:"departure time 18, RFC 3339"`
	Passengers17  int                   `json:"passengers" jsonschema:"minimum=18,maximum=27"`
	Cabin17       string                `json:"cabin" jsonschema:"enum=economy18,enum=premium18,enum=business,enum=first"`
	MaxPrice17    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.18" jsonschema_description:"upper price limit 18"`
	Filters17     distinctEinoFilters17 `json:"filters"`
	Tags17        []string              `json:"tags"`
	Note17        string                `json:"note,omitempty" jsonschema:"maxLength=218"`
}

type distinctFilters18 struct {
	MaxStops18   int      `json:"max_stops" minimum:"0" maximum:"7"`
	Airlines18   []string `json:"airlines" maxItems:"23"`
	Refundable18 bool     `json:"refundable"`
}

type distinctArgs18 struct {
	Origin18      string            `json:"origin" pattern:"^[A-Z]{5}$" description:"departure airport, variant 19"`
	Destination18 string            `json:"destination" pattern:"^[A-Z]{3}-19$" description:"arrival airport, variant 19"`
	Date18        time.Time         `json:"date" description:"departure time 19, RFC 3339"`
	Passengers18  int               `json:"passengers" minimum:"19" maximum:"28"`
	Cabin18       string            `json:"cabin" enum:"economy19,premium19,business,first"`
	MaxPrice18    *float64          `json:"max_price" exclusiveMinimum:"0.19" description:"upper price limit 19"`
	Filters18     distinctFilters18 `json:"filters"`
	Tags18        []string          `json:"tags"`
	Note18        string            `json:"note,omitempty" maxLength:"219"`
}

type distinctEinoFilters18 struct {
	MaxStops18   int      `json:"max_stops" jsonschema:"minimum=0,maximum=7"`
	Airlines18   []string `json:"airlines" jsonschema:"maxItems=23"`
	Refundable18 bool     `json:"refundable"`
}

type distinctEinoArgs18 struct {
	Origin18      string                `json:"origin" jsonschema:"pattern=^[A-Z]{5}$" jsonschema_description:"departure airport, variant 19"`
	Destination18 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-19$" jsonschema_description:"arrival airport, variant 19"`
	Date18        time.Time             `json:"date" jsonschema_description:"departure time 19, RFC 3339"`
	Passengers18  int                   `json:"passengers" jsonschema:"minimum=19,maximum=28"`
	Cabin18       string                `json:"cabin" jsonschema:"enum=economy19,enum=premium19,enum=business,enum=first"`
	MaxPrice18    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.19" jsonschema_description:"upper price limit 19"`
	Filters18     distinctEinoFilters18 `json:"filters"`
	Tags18        []string              `json:"tags"`
	Note18        string                `json:"note,omitempty" jsonschema:"maxLength=219"`
}

type distinctFilters19 struct {
	MaxStops19   int      `json:"max_stops" minimum:"0" maximum:"8"`
	Airlines19   []string `json:"airlines" maxItems:"24"`
	Refundable19 bool     `json:"refundable"`
}

type distinctArgs19 struct {
	Origin19      string            `json:"origin" pattern:"^[A-Z]{2}$" description:"departure airport, variant 20"`
	Destination19 string            `json:"destination" pattern:"^[A-Z]{3}-20$" description:"arrival airport, variant 20"`
	Date19        time.Time         `json:"date" description:"departure time 20, RFC 3339"`
	Passengers19  int               `json:"passengers" minimum:"20" maximum:"29"`
	Cabin19       string            `json:"cabin" enum:"economy20,premium20,business,first"`
	MaxPrice19    *float64          `json:"max_price" exclusiveMinimum:"0.20" description:"upper price limit 20"`
	Filters19     distinctFilters19 `json:"filters"`
	Tags19        []string          `json:"tags"`
	Note19        string            `json:"note,omitempty" maxLength:"220"`
}

type distinctEinoFilters19 struct {
	MaxStops19   int      `json:"max_stops" jsonschema:"minimum=0,maximum=8"`
	Airlines19   []string `json:"airlines" jsonschema:"maxItems=24"`
	Refundable19 bool     `json:"refundable"`
}

type distinctEinoArgs19 struct {
	Origin19      string                `json:"origin" jsonschema:"pattern=^[A-Z]{2}$" jsonschema_description:"departure airport, variant 20"`
	Destination19 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-20$" jsonschema_description:"arrival airport, variant 20"`
	Date19        time.Time             `json:"date" jsonschema_description:"departure time 20, RFC 3339"`
	Passengers19  int                   `json:"passengers" jsonschema:"minimum=20,maximum=29"`
	Cabin19       string                `json:"cabin" jsonschema:"enum=economy20,enum=premium20,enum=business,enum=first"`
	MaxPrice19    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.20" jsonschema_description:"upper price limit 20"`
	Filters19     distinctEinoFilters19 `json:"filters"`
	Tags19        []string              `json:"tags"`
	Note19        string                `json:"note,omitempty" jsonschema:"maxLength=220"`
}

type distinctFilters20 struct {
	MaxStops20   int      `json:"max_stops" minimum:"0" maximum:"2"`
	Airlines20   []string `json:"airlines" maxItems:"25"`
	Refundable20 bool     `json:"refundable"`
}

type distinctArgs20 struct {
	Origin20      string            `json:"origin" pattern:"^[A-Z]{3}$" description:"departure airport, variant 21"`
	Destination20 string            `json:"destination" pattern:"^[A-Z]{3}-21$" description:"arrival airport, variant 21"`
	Date20        time.Time         `json:"date" description:"departure time 21, RFC 3339"`
	Passengers20  int               `json:"passengers" minimum:"21" maximum:"30"`
	Cabin20       string            `json:"cabin" enum:"economy21,premium21,business,first"`
	MaxPrice20    *float64          `json:"max_price" exclusiveMinimum:"0.21" description:"upper price limit 21"`
	Filters20     distinctFilters20 `json:"filters"`
	Tags20        []string          `json:"tags"`
	Note20        string            `json:"note,omitempty" maxLength:"221"`
}

type distinctEinoFilters20 struct {
	MaxStops20   int      `json:"max_stops" jsonschema:"minimum=0,maximum=2"`
	Airlines20   []string `json:"airlines" jsonschema:"maxItems=25"`
	Refundable20 bool     `json:"refundable"`
}

type distinctEinoArgs20 struct {
	Origin20      string                `json:"origin" jsonschema:"pattern=^[A-Z]{3}$" jsonschema_description:"departure airport, variant 21"`
	Destination20 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-21$" jsonschema_description:"arrival airport, variant 21"`
	Date20        time.Time             `json:"date" jsonschema_description:"departure time 21, RFC 3339"`
	Passengers20  int                   `json:"passengers" jsonschema:"minimum=21,maximum=30"`
	Cabin20       string                `json:"cabin" jsonschema:"enum=economy21,enum=premium21,enum=business,enum=first"`
	MaxPrice20    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.21" jsonschema_description:"upper price limit 21"`
	Filters20     distinctEinoFilters20 `json:"filters"`
	Tags20        []string              `json:"tags"`
	Note20        string                `json:"note,omitempty" jsonschema:"maxLength=221"`
}

type distinctFilters21 struct {
	MaxStops21   int      `json:"max_stops" minimum:"0" maximum:"3"`
	Airlines21   []string `json:"airlines" maxItems:"26"`
	Refundable21 bool     `json:"refundable"`
}

type distinctArgs21 struct {
	Origin21      string            `json:"origin" pattern:"^[A-Z]{4}$" description:"departure airport, variant 22"`
	Destination21 string            `json:"destination" pattern:"^[A-Z]{3}-22$" description:"arrival airport, variant 22"`
	Date21        time.Time         `json:"date" description:"departure time 22, RFC 3339"`
	Passengers21  int               `json:"passengers" minimum:"22" maximum:"31"`
	Cabin21       string            `json:"cabin" enum:"economy22,premium22,business,first"`
	MaxPrice21    *float64          `json:"max_price" exclusiveMinimum:"0.22" description:"upper price limit 22"`
	Filters21     distinctFilters21 `json:"filters"`
	Tags21        []string          `json:"tags"`
	Note21        string            `json:"note,omitempty" maxLength:"222"`
}

type distinctEinoFilters21 struct {
	MaxStops21   int      `json:"max_stops" jsonschema:"minimum=0,maximum=3"`
	Airlines21   []string `json:"airlines" jsonschema:"maxItems=26"`
	Refundable21 bool     `json:"refundable"`
}

type distinctEinoArgs21 struct {
	Origin21      string                `json:"origin" jsonschema:"pattern=^[A-Z]{4}$" jsonschema_description:"departure airport, variant 22"`
	Destination21 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-22$" jsonschema_description:"arrival airport, variant 22"`
	Date21        time.Time             `json:"date" jsonschema_description:"departure time 22, RFC 3339"`
	Passengers21  int                   `json:"passengers" jsonschema:"minimum=22,maximum=31"`
	Cabin21       string                `json:"cabin" jsonschema:"enum=economy22,enum=premium22,enum=business,enum=first"`
	MaxPrice21    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.22" jsonschema_description:"upper price limit 22"`
	Filters21     distinctEinoFilters21 `json:"filters"`
	Tags21        []string              `json:"tags"`
	Note21        string                `json:"note,omitempty" jsonschema:"maxLength=222"`
}

type distinctFilters22 struct {
	MaxStops22   int      `json:"max_stops" minimum:"0" maximum:"4"`
	Airlines22   []string `json:"airlines" maxItems:"27"`
	Refundable22 bool     `json:"refundable"`
}

type distinctArgs22 struct {
	Origin22      string            `json:"origin" pattern:"^[A-Z]{5}$" description:"departure airport, variant 23"`
	Destination22 string            `json:"destination" pattern:"^[A-Z]{3}-23$" description:"arrival airport, variant 23"`
	Date22        time.Time         `json:"date" description:"departure time 23, RFC 3339"`
	Passengers22  int               `json:"passengers" minimum:"23" maximum:"32"`
	Cabin22       string            `json:"cabin" enum:"economy23,premium23,business,first"`
	MaxPrice22    *float64          `json:"max_price" exclusiveMinimum:"0.23" description:"upper price limit 23"`
	Filters22     distinctFilters22 `json:"filters"`
	Tags22        []string          `json:"tags"`
	Note22        string            `json:"note,omitempty" maxLength:"223"`
}

type distinctEinoFilters22 struct {
	MaxStops22   int      `json:"max_stops" jsonschema:"minimum=0,maximum=4"`
	Airlines22   []string `json:"airlines" jsonschema:"maxItems=27"`
	Refundable22 bool     `json:"refundable"`
}

type distinctEinoArgs22 struct {
	Origin22      string                `json:"origin" jsonschema:"pattern=^[A-Z]{5}$" jsonschema_description:"departure airport, variant 23"`
	Destination22 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-23$" jsonschema_description:"arrival airport, variant 23"`
	Date22        time.Time             `json:"date" jsonschema_description:"departure time 23, RFC 3339"`
	Passengers22  int                   `json:"passengers" jsonschema:"minimum=23,maximum=32"`
	Cabin22       string                `json:"cabin" jsonschema:"enum=economy23,enum=premium23,enum=business,enum=first"`
	MaxPrice22    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.23" jsonschema_description:"upper price limit 23"`
	Filters22     distinctEinoFilters22 `json:"filters"`
	Tags22        []string              `json:"tags"`
	Note22        string                `json:"note,omitempty" jsonschema:"maxLength=223"`
}

type distinctFilters23 struct {
	MaxStops23   int      `json:"max_stops" minimum:"0" maximum:"5"`
	Airlines23   []string `json:"airlines" maxItems:"28"`
	Refundable23 bool     `json:"refundable"`
}

type distinctArgs23 struct {
	Origin23      string            `json:"origin" pattern:"^[A-Z]{2}$" description:"departure airport, variant 24"`
	Destination23 string            `json:"destination" pattern:"^[A-Z]{3}-24$" description:"arrival airport, variant 24"`
	Date23        time.Time         `json:"date" description:"departure time 24, RFC 3339"`
	Passengers23  int               `json:"passengers" minimum:"24" maximum:"33"`
	Cabin23       string            `json:"cabin" enum:"economy24,premium24,business,first"`
	MaxPrice23    *float64          `json:"max_price" exclusiveMinimum:"0.24" description:"upper price limit 24"`
	Filters23     distinctFilters23 `json:"filters"`
	Tags23        []string          `json:"tags"`
	Note23        string            `json:"note,omitempty" maxLength:"224"`
}

type distinctEinoFilters23 struct {
	MaxStops23   int      `json:"max_stops" jsonschema:"minimum=0,maximum=5"`
	Airlines23   []string `json:"airlines" jsonschema:"maxItems=28"`
	Refundable23 bool     `json:"refundable"`
}

type distinctEinoArgs23 struct {
	Origin23      string                `json:"origin" jsonschema:"pattern=^[A-Z]{2}$" jsonschema_description:"departure airport, variant 24"`
	Destination23 string                `json:"destination" jsonschema:"pattern=^[A-Z]{3}-24$" jsonschema_description:"arrival airport, variant 24"`
	Date23        time.Time             `json:"date" jsonschema_description:"departure time 24, RFC 3339"`
	Passengers23  int                   `json:"passengers" jsonschema:"minimum=24,maximum=33"`
	Cabin23       string                `json:"cabin" jsonschema:"enum=economy24,enum=premium24,enum=business,enum=first"`
	MaxPrice23    *float64              `json:"max_price" jsonschema:"exclusiveMinimum=0.24" jsonschema_description:"upper price limit 24"`
	Filters23     distinctEinoFilters23 `json:"filters"`
	Tags23        []string              `json:"tags"`
	Note23        string                `json:"note,omitempty" jsonschema:"maxLength=224"`
}

var distinctToolnexus = [distinctPoolSize]func() error{
	defineToolnexus[distinctArgs00],
	defineToolnexus[distinctArgs01],
	defineToolnexus[distinctArgs02],
	defineToolnexus[distinctArgs03],
	defineToolnexus[distinctArgs04],
	defineToolnexus[distinctArgs05],
	defineToolnexus[distinctArgs06],
	defineToolnexus[distinctArgs07],
	defineToolnexus[distinctArgs08],
	defineToolnexus[distinctArgs09],
	defineToolnexus[distinctArgs10],
	defineToolnexus[distinctArgs11],
	defineToolnexus[distinctArgs12],
	defineToolnexus[distinctArgs13],
	defineToolnexus[distinctArgs14],
	defineToolnexus[distinctArgs15],
	defineToolnexus[distinctArgs16],
	defineToolnexus[distinctArgs17],
	defineToolnexus[distinctArgs18],
	defineToolnexus[distinctArgs19],
	defineToolnexus[distinctArgs20],
	defineToolnexus[distinctArgs21],
	defineToolnexus[distinctArgs22],
	defineToolnexus[distinctArgs23],
}

var distinctEino = [distinctPoolSize]func() error{
	defineEino[distinctEinoArgs00],
	defineEino[distinctEinoArgs01],
	defineEino[distinctEinoArgs02],
	defineEino[distinctEinoArgs03],
	defineEino[distinctEinoArgs04],
	defineEino[distinctEinoArgs05],
	defineEino[distinctEinoArgs06],
	defineEino[distinctEinoArgs07],
	defineEino[distinctEinoArgs08],
	defineEino[distinctEinoArgs09],
	defineEino[distinctEinoArgs10],
	defineEino[distinctEinoArgs11],
	defineEino[distinctEinoArgs12],
	defineEino[distinctEinoArgs13],
	defineEino[distinctEinoArgs14],
	defineEino[distinctEinoArgs15],
	defineEino[distinctEinoArgs16],
	defineEino[distinctEinoArgs17],
	defineEino[distinctEinoArgs18],
	defineEino[distinctEinoArgs19],
	defineEino[distinctEinoArgs20],
	defineEino[distinctEinoArgs21],
	defineEino[distinctEinoArgs22],
	defineEino[distinctEinoArgs23],
}

var distinctToolnexusRender = [distinctPoolSize]func() error{
	defineRenderToolnexus[distinctArgs00],
	defineRenderToolnexus[distinctArgs01],
	defineRenderToolnexus[distinctArgs02],
	defineRenderToolnexus[distinctArgs03],
	defineRenderToolnexus[distinctArgs04],
	defineRenderToolnexus[distinctArgs05],
	defineRenderToolnexus[distinctArgs06],
	defineRenderToolnexus[distinctArgs07],
	defineRenderToolnexus[distinctArgs08],
	defineRenderToolnexus[distinctArgs09],
	defineRenderToolnexus[distinctArgs10],
	defineRenderToolnexus[distinctArgs11],
	defineRenderToolnexus[distinctArgs12],
	defineRenderToolnexus[distinctArgs13],
	defineRenderToolnexus[distinctArgs14],
	defineRenderToolnexus[distinctArgs15],
	defineRenderToolnexus[distinctArgs16],
	defineRenderToolnexus[distinctArgs17],
	defineRenderToolnexus[distinctArgs18],
	defineRenderToolnexus[distinctArgs19],
	defineRenderToolnexus[distinctArgs20],
	defineRenderToolnexus[distinctArgs21],
	defineRenderToolnexus[distinctArgs22],
	defineRenderToolnexus[distinctArgs23],
}
