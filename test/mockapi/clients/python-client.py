# Debian's python3-kubernetes against the mock API (run by python.test.ts): list, create, patch, a watch
# stream from the list's resourceVersion, and the DynamicClient, which finds resources through discovery.
# Prints one JSON line per step.
import json
import sys

from kubernetes import client, config, dynamic, watch

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()


def say(step, value):
    print(json.dumps([step, value]), flush=True)


listed = core.list_namespaced_config_map("team")
say("list", [item.metadata.name for item in listed.items])
created = core.create_namespaced_config_map(
    "team", {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "py"}, "data": {"a": "1"}}
)
say("create", [created.metadata.name, bool(created.metadata.uid)])
patched = core.patch_namespaced_config_map("py", "team", {"data": {"a": "2"}})
say("patch", patched.data)
core.delete_namespaced_config_map("py", "team")

events = []
stream = watch.Watch()
for event in stream.stream(
    core.list_namespaced_config_map, "team", resource_version=listed.metadata.resource_version, timeout_seconds=60
):
    events.append([event["type"], event["object"].metadata.name, event["object"].data])
    if len(events) == 3:
        stream.stop()
say("watch", events)

dyn = dynamic.DynamicClient(client.ApiClient())
deployments = dyn.resources.get(api_version="apps/v1", kind="Deployment")
made = deployments.create(
    namespace="team",
    body={
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "dyn"},
        "spec": {
            "selector": {"matchLabels": {"app": "dyn"}},
            "template": {"metadata": {"labels": {"app": "dyn"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}},
        },
    },
)
say("dynamic create", [made.metadata.name, made.spec.replicas])
say("dynamic list", [item.metadata.name for item in deployments.get(namespace="team").items])
