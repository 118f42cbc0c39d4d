package dev.runbook.instance.drill;

import java.util.List;

/**
 * The drills' look into the object store (testenv/s3): the tools a user has, barman-cloud-backup-list
 * for the base backups, and a listing of the objects (boto3, which barman-cli-cloud itself uses) for
 * the WAL files, so that retention is checked on the real objects.
 */
record ObjectStoreClient(String endpoint, String bucket, String accessKey, String secretKey) {

    static ObjectStoreClient fromSystemProperties() {
        String endpoint = System.getProperty("runbook.s3.endpoint", "");
        return endpoint.isBlank() ? null : new ObjectStoreClient(endpoint, System.getProperty("runbook.s3.bucket", "runbook-backups"),
                System.getProperty("runbook.s3.accessKey", ""), System.getProperty("runbook.s3.secretKey", ""));
    }

    String destination(String prefix) {
        return "s3://" + bucket + "/" + prefix;
    }

    /** barman-cloud-backup-list's JSON for a server under a prefix. */
    String backupList(String prefix, String server) {
        return run(List.of("barman-cloud-backup-list", "--endpoint-url", endpoint, "--format", "json", destination(prefix), server));
    }

    /** The names of the WAL files kept for a server (its wals/ objects, without directories or compression suffixes). */
    List<String> walFiles(String prefix, String server) {
        String script = String.join("\n",
                "import sys, boto3",
                "from botocore.config import Config",
                "s3 = boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1', config=Config(s3={'addressing_style': 'path'}))",
                "for page in s3.get_paginator('list_objects_v2').paginate(Bucket=sys.argv[2], Prefix=sys.argv[3]):",
                "    for o in page.get('Contents', []):",
                "        print(o['Key'].rsplit('/', 1)[-1].split('.')[0])");
        String out = run(List.of("python3", "-c", script, endpoint, bucket, prefix + "/" + server + "/wals/"));
        return out.lines().map(String::strip).filter(l -> l.matches("[0-9A-F]{24}")).sorted().toList();
    }

    private String run(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("AWS_ACCESS_KEY_ID", accessKey);
        builder.environment().put("AWS_SECRET_ACCESS_KEY", secretKey);
        return Commands.run(builder, null, command.get(0));
    }
}
