{{/* The namespaces the policy grants any bundle, sorted and unique. */}}
{{- define "runbook.grantedNamespaces" -}}
{{- $policy := fromYaml .Values.policy -}}
{{- $namespaces := list -}}
{{- range $name, $bundle := $policy.bundles -}}
{{- range $bundle.namespaces -}}
{{- $namespaces = append $namespaces . -}}
{{- end -}}
{{- end -}}
{{- range $policy.defaults.namespaces -}}
{{- $namespaces = append $namespaces . -}}
{{- end -}}
{{- $namespaces | uniq | sortAlpha | toJson -}}
{{- end -}}

{{/* Labels on every object: the operator's name, and Helm's own unless rendered for kubectl (standalone). */}}
{{- define "runbook.labels" -}}
app.kubernetes.io/name: runbook-operator
{{- if not .Values.standalone }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end }}
{{- end -}}

{{/* What the operator needs to run the image's bundle: rbac-rules.yaml, derived by `runbook rbac --chart-rules`. */}}
{{- define "runbook.derivedRbac" -}}
{{- .Files.Get "rbac-rules.yaml" -}}
{{- end -}}

{{/* RBAC rules as a YAML list in flow style, one rule in three lines, as `runbook rbac` prints them. */}}
{{- define "runbook.rules" -}}
{{- range . }}
- apiGroups: [{{ range $i, $g := .apiGroups }}{{ if $i }}, {{ end }}{{ if eq $g "" }}""{{ else }}{{ $g }}{{ end }}{{ end }}]
  resources: [{{ join ", " .resources }}]
  {{- with .resourceNames }}
  resourceNames: [{{ join ", " . }}]
  {{- end }}
  verbs: [{{ join ", " .verbs }}]
{{- end }}
{{- end -}}
