package importer

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	practiced "github.com/practiced/practiced"
)

// Formats are the formats export writes.
var Formats = []string{"csv", "ndjson"}

// Export writes every record of the kind in the business to w, page by
// page, so its memory stays flat however many records there are:
//
//   - ndjson: each record's API document (what GET answers), one a line,
//     archived records included;
//   - csv: the columns import reads, one record a row. A person's
//     phone numbers fill one column per type, the first number of each
//     type; fields without a column (ids, timestamps, tags, the fields of
//     NDIS plans) are left out. Importing the file makes the same people
//     again, with new ids.
//
// progress, when set, is told the number of records written so far.
func Export(ctx context.Context, st practiced.Store, business, kindName, format string, w io.Writer, progress func(n int)) (int, error) {
	k, ok := kinds[kindName]
	if !ok {
		return 0, fmt.Errorf("cannot export %q: use %s", kindName, strings.Join(Kinds(), " or "))
	}
	list := st.ListClientDocs
	if k == contactKind {
		list = st.ListContactDocs
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	var cw *csv.Writer
	switch format {
	case "ndjson":
	case "csv":
		cw = csv.NewWriter(bw)
		if err := cw.Write(k.ours); err != nil {
			return 0, err
		}
	default:
		return 0, fmt.Errorf("unknown format %q: use %s", format, strings.Join(Formats, " or "))
	}
	page := practiced.PageRequest{Limit: 500}
	n := 0
	row := make([]string, len(k.ours))
	for {
		docs, info, err := list(ctx, business, practiced.PersonFilter{ListFilter: practiced.ListFilter{IncludeArchived: true}}, page)
		if err != nil {
			return n, err
		}
		for _, doc := range docs {
			if cw == nil {
				bw.WriteString(string(doc))
				bw.WriteByte('\n')
			} else {
				var rec map[string]any
				if err := json.Unmarshal([]byte(doc), &rec); err != nil {
					return n, err
				}
				for i, c := range k.ours {
					row[i] = cell(rec, c)
				}
				if err := cw.Write(row); err != nil {
					return n, err
				}
			}
			n++
		}
		if progress != nil {
			progress(n)
		}
		if !info.HasNext {
			break
		}
		page.After = info.LastID
	}
	if cw != nil {
		cw.Flush()
		if err := cw.Error(); err != nil {
			return n, err
		}
	}
	return n, bw.Flush()
}

// cell is the value of one of our columns in a record's document.
func cell(rec map[string]any, column string) string {
	switch {
	case strings.HasPrefix(column, "phone_"):
		typ := strings.TrimPrefix(column, "phone_")
		phones, _ := rec["phone_numbers"].([]any)
		for _, p := range phones {
			p, _ := p.(map[string]any)
			if p["type"] == typ {
				return text(p["code"]) + text(p["number"])
			}
		}
		return ""
	case strings.HasPrefix(column, "address_"):
		address, _ := rec["address"].(map[string]any)
		return text(address[strings.TrimPrefix(column, "address_")])
	}
	return text(rec[column])
}

func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}
