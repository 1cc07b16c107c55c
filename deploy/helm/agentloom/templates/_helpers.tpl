{{/* Names: <release>-agentloom, or the release's name when it already says agentloom. */}}
{{- define "agentloom.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "agentloom.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* Selector labels of one component: include "agentloom.selector" (list . "gateway"). */}}
{{- define "agentloom.selector" -}}
{{- $ := index . 0 -}}
app.kubernetes.io/name: {{ $.Chart.Name }}
app.kubernetes.io/instance: {{ $.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "agentloom.image" -}}
{{- $ := index . 0 -}}
{{- printf "%s/%s:%s" $.Values.image.repository (index . 1) ($.Values.image.tag | default $.Chart.AppVersion) -}}
{{- end -}}

{{- define "agentloom.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "agentloom.fullname" .)) -}}
{{- end -}}

{{- define "agentloom.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "agentloom.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* The pod-level settings every workload shares. */}}
{{- define "agentloom.podSpec" -}}
serviceAccountName: {{ include "agentloom.serviceAccountName" . }}
automountServiceAccountToken: false
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- end -}}

{{/* Pod annotations: a checksum of the settings (pods restart when they change), metrics. */}}
{{- define "agentloom.podAnnotations" -}}
{{- $ := index . 0 -}}
checksum/config: {{ include (print $.Template.BasePath "/configmap.yaml") $ | sha256sum }}
{{- if not $.Values.secrets.existingSecret }}
checksum/secrets-values: {{ toJson $.Values.secrets | sha256sum }}
{{- end }}
{{- if and (index . 1) $.Values.metrics.podAnnotations }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ $.Values.metrics.port | quote }}
prometheus.io/path: /metrics
{{- end }}
{{- with $.Values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Environment of the Node apps: the ConfigMap and the Secret. */}}
{{- define "agentloom.appEnv" -}}
envFrom:
  - configMapRef:
      name: {{ include "agentloom.fullname" . }}-config
  - secretRef:
      name: {{ include "agentloom.secretName" . }}
{{- end -}}

{{/*
  Writable folders of a Node app with a read-only root file system: /tmp (its DATA_DIR scratch
  is /tmp/agentloom) and the model cache. include "agentloom.appVolumes" (list . "10Gi").
*/}}
{{- define "agentloom.appVolumes" -}}
{{- $ := index . 0 -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ index . 1 }}
- name: model-cache
  {{- if $.Values.modelCache.existingClaim }}
  persistentVolumeClaim:
    claimName: {{ $.Values.modelCache.existingClaim }}
  {{- else }}
  emptyDir:
    sizeLimit: {{ $.Values.modelCache.sizeLimit }}
  {{- end }}
{{- end -}}

{{- define "agentloom.appMounts" -}}
- name: tmp
  mountPath: /tmp
- name: model-cache
  mountPath: /var/cache/agentloom/models
{{- end -}}

{{/* The container-level security context, with the image's user as a number (kubelet can only
     check runAsNonRoot against a numeric user; the Node images name theirs `node`). */}}
{{- define "agentloom.containerSecurity" -}}
{{- $ := index . 0 -}}
{{- toYaml (merge (dict "runAsUser" (index . 1) "runAsGroup" (index . 1)) $.Values.containerSecurityContext) }}
{{- end -}}

{{/* Spread a component's pods over nodes when the cluster can. */}}
{{- define "agentloom.spread" -}}
- maxSkew: 1
  topologyKey: kubernetes.io/hostname
  whenUnsatisfiable: ScheduleAnyway
  labelSelector:
    matchLabels:
      {{- include "agentloom.selector" . | nindent 6 }}
{{- end -}}

{{/* Where a component's pods go: spread over nodes, and its own nodeSelector, tolerations, affinity. */}}
{{- define "agentloom.placement" -}}
{{- $ := index . 0 -}}
{{- $values := index . 1 -}}
topologySpreadConstraints:
  {{- include "agentloom.spread" (list $ (index . 2)) | nindent 2 }}
{{- with $values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
