package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
)

// Every color is a CSS color name or a #rgb or #rrggbb hex color, in any
// case, answered in lower case; a form made from a template carries the
// template's color.
func TestEveryColorIsACSSColorNameOrAHexColor(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		plural, body string
	}{
		{"form_templates", `{"name":"Intake","content":[{"sections":[{"questions":[{"id":"q","type":"short_text","label":"Q"}]}]}],"color":COLOR}`},
		{"services", `{"name":"Review","duration":20,"color":COLOR}`},
		{"tags", `{"name":"Tag","color":COLOR}`},
		{"busy_time_types", `{"name":"Busy","color":COLOR}`},
	} {
		for _, c := range []struct{ sent, want string }{
			{"teal", "teal"}, {"RebeccaPurple", "rebeccapurple"}, {"#0A7BFF", "#0a7bff"}, {"#0F0", "#0f0"}, {"", ""},
		} {
			t.Run(tc.plural+" "+c.sent, func(t *testing.T) {
				r := e.do("POST", "/v1/"+tc.plural, e.a.Token, strings.Replace(tc.body, "COLOR", `"`+c.sent+`"`, 1))
				wantStatus(t, r, http.StatusCreated)
				if got := r.JSON(t)["color"]; got != c.want {
					t.Fatalf("color %v, want %q", got, c.want)
				}
				if tc.plural != "form_templates" {
					return
				}
				f := e.do("POST", "/v1/forms", e.a.Token, map[string]any{"form_template_id": r.JSON(t)["id"], "client_id": e.a.Clients[0].ID})
				wantStatus(t, f, http.StatusCreated)
				if got := f.JSON(t)["color"]; got != c.want {
					t.Fatalf("form color %v, want %q", got, c.want)
				}
			})
		}
		for _, bad := range []string{`"light blue"`, `"reddish"`, `"#abcd"`, `"2e86ab"`, `"transparent"`} {
			t.Run(tc.plural+" "+bad, func(t *testing.T) {
				wantInvalid(t, e.do("POST", "/v1/"+tc.plural, e.a.Token, strings.Replace(tc.body, "COLOR", bad, 1)),
					oneError("color", "must be a CSS color name such as teal, or a hex color such as #1a2b3c or #abc"), "")
			})
		}
	}
}
