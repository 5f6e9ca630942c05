package hangup_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/practiced/practiced/internal/hangup"
)

func TestAnswered(t *testing.T) {
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	expired, stop := context.WithTimeout(context.Background(), 0)
	defer stop()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"the client left", gone, context.Canceled, true},
		{"the client left, the error wrapped", gone, fmt.Errorf("list: %w", context.Canceled), true},
		{"a cancellation of the server's own", context.Background(), context.Canceled, false},
		{"another error after the client left", gone, errors.New("disk full"), false},
		{"a deadline", expired, context.DeadlineExceeded, false},
	} {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/", nil).WithContext(tc.ctx)
		got := hangup.Answered(rec, r, tc.err)
		wantCode := 200 // the recorder's when nothing is written
		if tc.want {
			wantCode = hangup.StatusClientClosed
		}
		if got != tc.want || rec.Code != wantCode || rec.Body.Len() != 0 {
			t.Errorf("%s: %v, %d %q; want %v, %d and no body", tc.name, got, rec.Code, rec.Body, tc.want, wantCode)
		}
	}
}
