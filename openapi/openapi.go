// Package openapi embeds the OpenAPI 3.1 description of the API.
package openapi

import _ "embed"

// Document is the OpenAPI document, served at GET /v1/openapi.json.
//
//go:embed openapi.json
var Document []byte
