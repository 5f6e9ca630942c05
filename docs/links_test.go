// Package docs holds no code: its test keeps the Markdown documents of the
// repository readable on their own, every link pointing to a file of the
// repository and every anchor to a heading there.
package docs

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// root is the repository, seen from this package's directory.
const root = ".."

// TestLinksPointInsideTheRepository checks every relative link of every
// Markdown file: the target must exist inside the repository, and an
// anchor must name a heading of the target. Links to other sites are
// left alone.
func TestLinksPointInsideTheRepository(t *testing.T) {
	repo := os.DirFS(root)
	docs := markdownFiles(t, repo)
	if len(docs) < 3 {
		t.Fatalf("found only %v: is the test run from docs/?", docs)
	}
	checked := 0
	for _, doc := range docs {
		for _, l := range links(t, repo, doc) {
			checked++
			if err := checkLink(repo, doc, l); err != nil {
				t.Errorf("%s: link %q: %v", doc, l, err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no links found")
	}
}

// TestSlug pins the heading anchors the links rely on to the way GitHub
// writes them.
func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Rule 3: conflicts":               "rule-3-conflicts",
		"POST /v1/busy_times":             "post-v1busy_times",
		"Examples across a DST change":    "examples-across-a-dst-change",
		"The hosted form, `/f/{form_id}`": "the-hosted-form-fform_id",
		"Tags, referral types":            "tags-referral-types",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

// markdownFiles lists the repository's Markdown files, skipping hidden
// directories, test data and installed npm packages.
func markdownFiles(t *testing.T, repo fs.FS) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(repo, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".md") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var (
	fence      = regexp.MustCompile("(?s)```.*?```")
	codeSpan   = regexp.MustCompile("`[^`\n]*`")
	inlineLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	headingRE  = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)
)

// links returns the targets of the inline links of a Markdown file,
// leaving out code, where brackets are not links.
func links(t *testing.T, repo fs.FS, doc string) []string {
	t.Helper()
	b, err := fs.ReadFile(repo, doc)
	if err != nil {
		t.Fatal(err)
	}
	text := fence.ReplaceAllString(string(b), "")
	// A code span may be a link's text, as in [`openapi/`](openapi), so it
	// is kept without what could make a link of its own.
	text = codeSpan.ReplaceAllStringFunc(text, func(s string) string {
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune("`[]()", r) {
				return -1
			}
			return r
		}, s)
	})
	var out []string
	for _, m := range inlineLink.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// checkLink checks one link target of doc.
func checkLink(repo fs.FS, doc, target string) error {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return nil
	}
	file, anchor, _ := strings.Cut(target, "#")
	p := doc
	if file != "" {
		p = path.Join(path.Dir(doc), file)
		if !fs.ValidPath(p) {
			return fmt.Errorf("points outside the repository")
		}
		if _, err := fs.Stat(repo, p); err != nil {
			return fmt.Errorf("no such file %s", p)
		}
	}
	if anchor == "" {
		return nil
	}
	b, err := fs.ReadFile(repo, p)
	if err != nil {
		return fmt.Errorf("anchor #%s in %s, which is not a file", anchor, p)
	}
	for _, h := range headings(string(b)) {
		if h == anchor {
			return nil
		}
	}
	return fmt.Errorf("%s has no heading #%s", p, anchor)
}

// headings returns the anchors of a Markdown file's headings, numbering
// repeats as GitHub does (name, name-1, name-2, …).
func headings(text string) []string {
	text = fence.ReplaceAllString(text, "")
	seen := map[string]int{}
	var out []string
	for _, m := range headingRE.FindAllStringSubmatch(text, -1) {
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out = append(out, fmt.Sprintf("%s-%d", s, n))
		} else {
			out = append(out, s)
		}
		seen[s]++
	}
	return out
}

// slug makes a heading's anchor: lower case, letters, digits, '-' and '_'
// kept, spaces made '-', everything else dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
