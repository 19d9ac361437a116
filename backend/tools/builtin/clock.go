package builtin

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	_ "time/tzdata" // IANA zones even where the system has none (Windows, slim images)

	"hermes/backend/tools"
)

// Clock is the current_time tool.
type Clock struct {
	now func() time.Time
	loc *time.Location
}

// NewClock returns the tool; nil now means time.Now, nil loc means time.Local.
func NewClock(now func() time.Time, loc *time.Location) *Clock {
	if now == nil {
		now = time.Now
	}
	if loc == nil {
		loc = time.Local
	}
	return &Clock{now: now, loc: loc}
}

func (*Clock) Name() string { return "current_time" }
func (*Clock) Description() string {
	return "Get the current date, time and weekday, in the user's time zone or in a given IANA time zone."
}
func (*Clock) Annotations() tools.Annotations { return tools.Annotations{ReadOnly: true} }
func (*Clock) Parameters() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"timezone":{"type":"string","maxLength":64,
		"description":"IANA time zone such as Europe/Paris, America/New_York or Asia/Shanghai; omit for the user's own"}},
		"additionalProperties":false}`)
}
func (*Clock) ResultSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","required":["datetime","date","time","weekday","timezone","utc_offset","unix"]}`)
}

// ClockResult is what current_time returns.
type ClockResult struct {
	Datetime  string `json:"datetime"` // RFC 3339
	Date      string `json:"date"`     // 2006-01-02
	Time      string `json:"time"`     // 15:04:05
	Weekday   string `json:"weekday"`
	Timezone  string `json:"timezone"`
	UTCOffset string `json:"utc_offset"` // +08:00
	Unix      int64  `json:"unix"`
}

// Execute reads the clock.
func (c *Clock) Execute(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Timezone string `json:"timezone"`
	}
	if err := tools.ReadArgs("current time", args, &in); err != nil {
		return nil, err
	}
	loc := c.loc
	if in.Timezone != "" {
		l, err := time.LoadLocation(in.Timezone)
		if err != nil || in.Timezone == "Local" {
			return nil, fmt.Errorf("unknown time zone %q: use an IANA name such as Europe/Paris or Asia/Shanghai", in.Timezone)
		}
		loc = l
	}
	now := c.now().In(loc)
	return tools.JSONResult("current time", ClockResult{
		Datetime: now.Format(time.RFC3339), Date: now.Format("2006-01-02"), Time: now.Format("15:04:05"),
		Weekday: now.Weekday().String(), Timezone: loc.String(), UTCOffset: now.Format("-07:00"), Unix: now.Unix(),
	})
}
