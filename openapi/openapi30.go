package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Document30 is Document rendered as OpenAPI 3.0.3 (see Convert30), served at
// GET /v1/openapi-3.0.json for tools that do not read 3.1 yet (code
// generators, mostly). It is made from Document when the program starts,
// so the two never disagree.
var Document30 = mustConvert30()

func mustConvert30() []byte {
	doc, err := Convert30(Document)
	if err != nil {
		panic(fmt.Sprintf("openapi: %v", err))
	}
	return doc
}

// Convert30 renders an OpenAPI 3.1 document as OpenAPI 3.0.3. Schemas
// keep their meaning wherever 3.0 can say it:
//   - a type list with "null" becomes the other type and nullable: true;
//   - a list of several other types becomes a oneOf of one schema per type
//     (anyOf when it holds both integer and number, which overlap), each
//     branch taking the keywords that apply to its type; every JSON type
//     at once becomes a schema without a type;
//   - a {"type": "null"} branch of anyOf or oneOf becomes nullable: true;
//   - const becomes a one-value enum, examples the single example, a
//     numeric exclusiveMinimum or exclusiveMaximum the 3.0 boolean form;
//   - boolean schemas become {} (true) and {"not": {}} (false);
//   - an anyOf or oneOf of a string whose branches only refine it (a
//     format, a length, a pattern) is dropped, as 3.0 tools cannot tell
//     such branches apart;
//   - keywords 3.0 does not have ($schema, $id, $defs, prefixItems,
//     if/then/else, patternProperties, …) are dropped, as are info.summary,
//     license.identifier, webhooks and jsonSchemaDialect.
func Convert30(doc31 []byte) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(doc31, &doc); err != nil {
		return nil, err
	}
	if v, _ := doc["openapi"].(string); len(v) < 4 || v[:4] != "3.1." {
		return nil, fmt.Errorf("openapi %q: not a 3.1 document", v)
	}
	doc["openapi"] = "3.0.3"
	delete(doc, "webhooks")
	delete(doc, "jsonSchemaDialect")
	if info, ok := doc["info"].(map[string]any); ok {
		delete(info, "summary")
		if license, ok := info["license"].(map[string]any); ok {
			delete(license, "identifier")
		}
	}
	comps, _ := doc["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	c := converter30{schemas: schemas}
	delete(comps, "pathItems")
	for name, s := range schemas {
		schemas[name] = c.schema(s)
	}
	for key, v := range doc {
		if key != "components" {
			doc[key] = c.walk(v)
		}
	}
	for key, v := range comps {
		if key != "schemas" {
			comps[key] = c.walk(v)
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// converter30 converts the schemas of one document; it reads the
// document's component schemas to give a nullable $ref its type.
type converter30 struct {
	schemas map[string]any
}

// walk converts every schema under v, a part of the document outside
// components.schemas: schemas there sit under a "schema" key (of a
// parameter, header or media type). Examples and extensions are data,
// not description, and are left as they are.
func (c converter30) walk(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for key, sub := range v {
			switch {
			case key == "schema":
				v[key] = c.schema(sub)
			case key == "example" || key == "examples" || len(key) > 2 && key[:2] == "x-":
			default:
				v[key] = c.walk(sub)
			}
		}
	case []any:
		for i, sub := range v {
			v[i] = c.walk(sub)
		}
	}
	return v
}

// dropped30 lists the schema keywords of 3.1 (JSON Schema 2020-12) that
// OpenAPI 3.0 does not have.
var dropped30 = []string{
	"$schema", "$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$comment", "$defs", "$vocabulary",
	"prefixItems", "contains", "minContains", "maxContains", "unevaluatedItems", "unevaluatedProperties",
	"patternProperties", "propertyNames", "dependentRequired", "dependentSchemas",
	"if", "then", "else", "contentEncoding", "contentMediaType", "contentSchema",
}

// typeKeywords lists, for each JSON type, the keywords that apply only
// to it: when a type list is split into one schema per type, each branch
// takes its own.
var typeKeywords = map[string][]string{
	"string":  {"minLength", "maxLength", "pattern", "format"},
	"array":   {"items", "minItems", "maxItems", "uniqueItems"},
	"object":  {"properties", "required", "additionalProperties", "minProperties", "maxProperties"},
	"number":  {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"},
	"integer": {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"},
	"boolean": {},
}

// schema converts one schema and every schema inside it.
func (c converter30) schema(v any) any {
	switch v := v.(type) {
	case bool:
		if v {
			return map[string]any{}
		}
		return map[string]any{"not": map[string]any{}}
	case map[string]any:
		c.convert(v)
		return v
	}
	return v
}

func (c converter30) convert(s map[string]any) {
	for _, key := range dropped30 {
		delete(s, key)
	}
	// A null branch is read before the branches are converted, which
	// would make it an enum of null.
	c.nullBranches(s)
	// The schemas inside next, so a branch split off below is already
	// converted.
	for _, key := range []string{"items", "not"} {
		if sub, ok := s[key]; ok {
			s[key] = c.schema(sub)
		}
	}
	if sub, ok := s["additionalProperties"].(map[string]any); ok {
		c.convert(sub)
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for name, sub := range props {
			props[name] = c.schema(sub)
		}
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := s[key].([]any); ok {
			for i, sub := range list {
				list[i] = c.schema(sub)
			}
		}
	}

	if c, ok := s["const"]; ok {
		s["enum"] = []any{c}
		delete(s, "const")
	}
	if ex, ok := s["examples"].([]any); ok {
		if len(ex) > 0 {
			s["example"] = ex[0]
		}
		delete(s, "examples")
	}
	for key, bound := range map[string]string{"exclusiveMinimum": "minimum", "exclusiveMaximum": "maximum"} {
		if n, ok := s[key].(float64); ok {
			s[bound] = n
			s[key] = true
		}
	}
	types30(s)
	stringAlternatives30(s)
}

// stringAlternatives30 drops an anyOf or oneOf of a string schema whose
// branches only refine the string (a format, a length, a pattern), such
// as "an e-mail address or empty": 3.0 tools read the untyped branches
// as a union of types they cannot tell apart. What is left still
// describes every value the union allows.
func stringAlternatives30(s map[string]any) {
	if s["type"] != "string" {
		return
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		list, ok := s[key].([]any)
		if !ok {
			continue
		}
		refinesOnly := true
		for _, b := range list {
			m, ok := b.(map[string]any)
			if !ok {
				refinesOnly = false
			}
			for k := range m {
				if !slices.Contains(typeKeywords["string"], k) {
					refinesOnly = false
				}
			}
		}
		if refinesOnly {
			delete(s, key)
		}
	}
}

// nullBranches turns a {"type": "null"} branch of anyOf or oneOf into
// nullable: true; a single branch left becomes allOf, the 3.0 way to
// give a $ref siblings, and lends the schema its type, as 3.0 wants
// beside nullable.
func (c converter30) nullBranches(s map[string]any) {
	for _, key := range []string{"anyOf", "oneOf"} {
		list, ok := s[key].([]any)
		if !ok {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(list), func(b any) bool {
			m, _ := b.(map[string]any)
			return len(m) == 1 && m["type"] == "null"
		})
		if len(kept) == len(list) {
			continue
		}
		s["nullable"] = true
		if len(kept) == 1 {
			delete(s, key)
			s["allOf"] = append(toList(s["allOf"]), kept[0])
			if t := c.typeOf(kept[0]); t != "" {
				s["type"] = t
			}
			continue
		}
		s[key] = kept
	}
}

// typeOf returns the single type of schema v, following a $ref to a
// component schema; "" when it has none.
func (c converter30) typeOf(v any) string {
	m, _ := v.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		const prefix = "#/components/schemas/"
		if len(ref) > len(prefix) && ref[:len(prefix)] == prefix {
			return c.typeOf(c.schemas[ref[len(prefix):]])
		}
		return ""
	}
	t, _ := m["type"].(string)
	return t
}

// types30 rewrites a list of types as 3.0 can say it.
func types30(s map[string]any) {
	var types []string
	switch t := s["type"].(type) {
	case string:
		if t != "null" {
			return
		}
		types = []string{t}
	case []any:
		for _, x := range t {
			if name, ok := x.(string); ok {
				types = append(types, name)
			}
		}
	default:
		return
	}
	if i := slices.Index(types, "null"); i >= 0 {
		types = slices.Delete(types, i, i+1)
		s["nullable"] = true
	}
	switch {
	case len(types) == 0:
		// Only null: 3.0 has no null type, but an enum of null on a
		// nullable schema says the same.
		delete(s, "type")
		s["enum"] = []any{nil}
	case len(types) == 1:
		s["type"] = types[0]
	case anyType(types):
		// Every JSON value: a schema without a type. Keywords of a single
		// type no longer apply to anything in particular, and 3.0 reads
		// nullable only beside a type.
		delete(s, "type")
		delete(s, "nullable")
		for _, t := range types {
			for _, key := range typeKeywords[t] {
				delete(s, key)
			}
		}
	default:
		delete(s, "type")
		var branches []any
		for _, t := range types {
			b := map[string]any{"type": t}
			for _, key := range typeKeywords[t] {
				if v, ok := s[key]; ok {
					b[key] = v
				}
			}
			if enum, ok := s["enum"].([]any); ok {
				values := valuesOfType(enum, t)
				if len(values) == 0 {
					continue // no value of the enum has this type
				}
				b["enum"] = values
			}
			branches = append(branches, b)
		}
		for _, t := range types {
			for _, key := range typeKeywords[t] {
				delete(s, key)
			}
		}
		delete(s, "enum")
		key := "oneOf"
		if slices.Contains(types, "integer") && slices.Contains(types, "number") {
			key = "anyOf"
		}
		if _, taken := s[key]; taken {
			// The schema has its own union already: both must hold.
			s["allOf"] = append(toList(s["allOf"]), map[string]any{key: branches})
			return
		}
		s[key] = branches
	}
}

// anyType reports whether types covers every JSON value but null.
func anyType(types []string) bool {
	for _, t := range []string{"string", "array", "object", "boolean"} {
		if !slices.Contains(types, t) {
			return false
		}
	}
	return slices.Contains(types, "number")
}

// valuesOfType returns the values of enum that are of JSON type t.
func valuesOfType(enum []any, t string) []any {
	var out []any
	for _, v := range enum {
		var of string
		switch v := v.(type) {
		case string:
			of = "string"
		case bool:
			of = "boolean"
		case float64:
			of = "number"
			if t == "integer" && v == float64(int64(v)) {
				of = "integer"
			}
		case []any:
			of = "array"
		case map[string]any:
			of = "object"
		}
		if of == t {
			out = append(out, v)
		}
	}
	return out
}

func toList(v any) []any {
	list, _ := v.([]any)
	return list
}
