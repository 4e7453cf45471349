package openapi

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Schema is a JSON Schema (2020-12, as OpenAPI 3.1 uses it).
type Schema map[string]any

// maxDepth stops a type that contains itself.
const maxDepth = 12

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

// SchemaOf describes the JSON an example value encodes to: a struct by its
// exported fields and json tags, a map by the keys it has (or, empty, by
// its value type), a slice by its first element (or its element type),
// time.Time as a date-time string, json.RawMessage and nil as any value.
func SchemaOf(v any) Schema {
	if v == nil {
		return Schema{}
	}
	return valueSchema(reflect.ValueOf(v), 0)
}

func valueSchema(v reflect.Value, depth int) Schema {
	if depth > maxDepth {
		return Schema{}
	}
	t := v.Type()
	switch {
	case t == timeType:
		return Schema{"type": "string", "format": "date-time"}
	case t == rawType:
		return Schema{}
	}
	switch t.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return Schema{}
		}
		return valueSchema(v.Elem(), depth+1)
	case reflect.Pointer:
		if v.IsNil() {
			return valueSchema(reflect.Zero(t.Elem()), depth+1)
		}
		return valueSchema(v.Elem(), depth+1)
	case reflect.String:
		return Schema{"type": "string"}
	case reflect.Bool:
		return Schema{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Schema{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return Schema{"type": "number"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return Schema{"type": "string", "contentEncoding": "base64"}
		}
		items := valueSchema(reflect.Zero(t.Elem()), depth+1)
		if v.Len() > 0 {
			items = valueSchema(v.Index(0), depth+1)
		}
		return Schema{"type": "array", "items": items}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return Schema{"type": "object"}
		}
		if v.Len() == 0 {
			return Schema{"type": "object", "additionalProperties": valueSchema(reflect.Zero(t.Elem()), depth+1)}
		}
		props := map[string]Schema{}
		for _, k := range v.MapKeys() {
			props[k.String()] = valueSchema(v.MapIndex(k), depth+1)
		}
		return Schema{"type": "object", "properties": props}
	case reflect.Struct:
		props := map[string]Schema{}
		structProps(v, props, depth)
		return Schema{"type": "object", "properties": props}
	}
	return Schema{}
}

// structProps adds a struct's JSON members to props, flattening embedded
// structs without a name as encoding/json does.
func structProps(v reflect.Value, props map[string]Schema, depth int) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			structProps(v.Field(i), props, depth+1)
			continue
		}
		if name == "" {
			name = f.Name
		}
		s := valueSchema(v.Field(i), depth+1)
		if slices.Contains(strings.Split(opts, ","), "string") {
			s = Schema{"type": "string"}
		}
		props[name] = s
	}
}
