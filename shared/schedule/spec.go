package schedule

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/oficina/oficina/shared/module"
)

// Spec is what the dispatcher needs of a job: its name, its schedule and
// whether it fans out per Group. functions/schedule reads the specs of the
// registered jobs from its jobs.json (a test keeps the file equal to the
// registry), so the dispatcher links none of the modules.
type Spec struct {
	Name     string `json:"name"`
	Schedule string `json:"schedule"`
	PerGroup bool   `json:"per_group,omitempty"`
}

// Specs describes jobs.
func Specs(jobs []module.Job) []Spec {
	out := make([]Spec, len(jobs))
	for i, j := range jobs {
		out[i] = Spec{Name: j.Name, Schedule: j.Schedule, PerGroup: j.Group != nil}
	}
	return out
}

// ParseSpecs reads a JSON list of specs and checks their schedules.
func ParseSpecs(raw []byte) ([]Spec, error) {
	var specs []Spec
	if err := json.Unmarshal(raw, &specs); err != nil {
		return nil, fmt.Errorf("schedule: job specs: %w", err)
	}
	for _, s := range specs {
		if s.Name == "" {
			return nil, fmt.Errorf("schedule: a job spec without a name")
		}
		if _, err := Parse(s.Schedule); err != nil {
			return nil, fmt.Errorf("job %s: %w", s.Name, err)
		}
	}
	return specs, nil
}

// Dispatchable returns jobs the dispatcher can fan out but that run
// nowhere: the worker runs the real ones, so theirs refuse.
func Dispatchable(specs []Spec) []module.Job {
	jobs := make([]module.Job, len(specs))
	for i, s := range specs {
		err := fmt.Errorf("job %s runs in the worker, not the dispatcher", s.Name)
		jobs[i] = module.Job{Name: s.Name, Schedule: s.Schedule, Run: func(context.Context, module.JobEvent) error { return err }}
		if s.PerGroup {
			jobs[i].Group = func(context.Context, module.JobEvent, string) error { return err }
		}
	}
	return jobs
}
