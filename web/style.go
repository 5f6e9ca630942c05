package web

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"math"
	"strconv"
	"strings"

	practiced "github.com/practiced/practiced"
)

// defaultAccent colours a page whose form has no colour of its own.
const defaultAccent = "#1d4ed8"

// pageStyle is the page's style sheet, with the form's colour as accent.
// Only a colour the API accepts is used (a CSS colour name or a hex
// colour, valid CSS as it is), so nothing else reaches the CSS; text on
// the accent is black or white, whichever contrasts more.
func pageStyle(color string) template.CSS {
	accent, hex := defaultAccent, defaultAccent
	if h, ok := practiced.ColorHex(color); ok {
		accent, _ = practiced.NormalizeColor(color)
		hex = h
	}
	ink := "#ffffff"
	if luminance(hex) > 0.179 {
		ink = "#000000"
	}
	return template.CSS(strings.NewReplacer("ACCENT", accent, "INK", ink).Replace(css))
}

// styleHash is the CSP source that allows exactly this style sheet.
func styleHash(style template.CSS) string {
	sum := sha256.Sum256([]byte(style))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// luminance is the relative luminance of a #rrggbb colour (WCAG 2).
func luminance(hex string) float64 {
	var l float64
	for i, weight := range []float64{0.2126, 0.7152, 0.0722} {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.03928 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += weight * c
	}
	return l
}

const css = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:1.0625rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f6f6f4}
.bar{height:.5rem;background:ACCENT}
header,main,footer{max-width:42rem;margin:0 auto;padding:0 1rem}
header p{margin:1rem 0 0;color:#4a4a4a}
h1{font-size:1.75rem;line-height:1.2;margin:.25rem 0 1.5rem}
h2{font-size:1.375rem;margin:2rem 0 .75rem}
h3{font-size:1.1875rem;margin:1.5rem 0 .5rem}
.description{color:#4a4a4a;margin:0 0 1rem}
.question{margin:0 0 1.5rem;padding:0;border:0}
.question.invalid{border-left:4px solid #b3261e;padding-left:.75rem}
label.question-label,legend{display:block;font-weight:600;margin-bottom:.25rem;padding:0}
.required{font-weight:400;color:#4a4a4a}
.hint{color:#4a4a4a;margin:0 0 .25rem}
.error-message{color:#b3261e;font-weight:600;margin:0 0 .25rem}
input[type=text],input[type=email],input[type=tel],input[type=date],textarea{display:block;width:100%;max-width:32rem;font:inherit;padding:.5rem;border:2px solid #4a4a4a;border-radius:4px;background:#fff;color:inherit}
textarea{min-height:8rem}
.invalid input,.invalid textarea{border-color:#b3261e}
.option{display:flex;align-items:center;gap:.5rem;margin:.375rem 0}
.option input{width:1.5rem;height:1.5rem;margin:0;accent-color:ACCENT}
.option label{font-weight:400}
:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px;box-shadow:0 0 0 6px #ffdd00}
.actions{display:flex;flex-wrap:wrap;gap:1rem;margin:2rem 0}
button{font:inherit;font-weight:600;padding:.625rem 1.25rem;border-radius:4px;border:2px solid #1a1a1a;background:#fff;color:#1a1a1a;cursor:pointer}
button.primary{background:ACCENT;border-color:ACCENT;color:INK}
.error-summary{border:4px solid #b3261e;background:#fff;padding:1rem 1.25rem;margin:0 0 2rem}
.error-summary h2{margin-top:0}
.error-summary a{color:#b3261e;font-weight:600}
.notice{border-left:6px solid ACCENT;background:#fff;padding:1rem 1.25rem;margin:0 0 2rem}
.answers dt{font-weight:600;margin-top:1rem}
.answers dd{margin:0;white-space:pre-line}
.answers ul{margin:0;padding-left:1.25rem}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
footer{color:#4a4a4a;font-size:.875rem;padding-bottom:2rem}
header p.place{margin:.25rem 0 0}
.step{color:#4a4a4a;margin:1.5rem 0 0;font-size:.9375rem}
.option-hint{margin:-.25rem 0 .5rem 2rem}
legend h2{margin:0 0 .25rem}
fieldset.day,fieldset.details{border:0;padding:0;margin:1.25rem 0 0}
fieldset.day legend{font-weight:600}
.days ul{list-style:none;margin:.75rem 0 0;padding:0;display:grid;grid-template-columns:repeat(7,minmax(0,1fr));gap:.25rem}
.day-link{display:flex;flex-direction:column;align-items:center;width:100%;height:100%;margin:0;padding:.375rem 0;border:2px solid #c8c8c8;border-radius:4px;background:#fff;color:#1a1a1a;font:inherit;font-size:.8125rem;line-height:1.3;font-weight:400;text-align:center;text-decoration:none;cursor:pointer}
.day-link .weekday{font-weight:600}
.day-link .count{color:#4a4a4a}
.day-link.none{background:transparent;border-style:dashed;color:#6b6b6b;cursor:default}
.day-link.none .count{color:#6b6b6b}
.day-link[aria-current]{border-color:ACCENT;box-shadow:inset 0 0 0 2px ACCENT}
.slots{display:grid;grid-template-columns:repeat(auto-fill,minmax(6.5rem,1fr));gap:.5rem;margin-top:.5rem}
.slots .option{position:relative;margin:0}
.slots .option input{position:absolute;inset:0;width:100%;height:100%;margin:0;opacity:0;cursor:pointer}
.slots .option label{flex:1;padding:.5rem .25rem;border:2px solid #c8c8c8;border-radius:4px;background:#fff;text-align:center;white-space:nowrap}
.slots input:hover+label{border-color:#4a4a4a}
.slots input:checked+label{background:ACCENT;border-color:ACCENT;color:INK;font-weight:600}
.slots input:focus-visible+label{outline:3px solid #1a1a1a;outline-offset:2px;box-shadow:0 0 0 6px #ffdd00}
@media (forced-colors:active){.slots input:checked+label{outline:3px solid Highlight}}
.actions.sticky{position:sticky;bottom:0;z-index:1;margin:1.5rem -1rem 1rem;padding:.75rem 1rem;background:#f6f6f4;border-top:1px solid #d6d6d2}
@media (max-width:40rem){.actions.sticky{position:fixed;left:0;right:0;margin:0}.actions.sticky button{flex:1}main:has(.actions.sticky){padding-bottom:5rem}.day-link .unit{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}}
.weeks{display:flex;flex-wrap:wrap;gap:1rem;margin:0 0 2rem}
.notice.taken{border-left-color:#b3261e}
`
