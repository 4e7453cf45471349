#!/usr/bin/env bash
# Deploys the Oficina stack to a running LocalStack with cdklocal.
#
# Optional tooling: it needs Docker and LocalStack (localstack/README.md),
# and it is never part of CI. Usage, from anywhere in the repository:
#
#   LOCALSTACK_AUTH_TOKEN=... docker compose -f localstack/docker-compose.yml up -d
#   localstack/deploy.sh            # or: make localstack-deploy
#
# It builds what is missing (make lambdas, the web build), bootstraps the
# LocalStack "account", deploys stack Oficina-$STAGE, writes its outputs to
# build/localstack-outputs.json and smoke-tests the API.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD

STAGE=${STAGE:-dev}
STACK="Oficina-${STAGE}"
REGION=${AWS_DEFAULT_REGION:-us-east-1}
ENDPOINT=${AWS_ENDPOINT_URL:-http://localhost.localstack.cloud:4566}
OUTPUTS="$ROOT/build/localstack-outputs.json"

# LocalStack accepts any credentials; these keep the CDK away from real ones.
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_DEFAULT_REGION="$REGION" AWS_REGION="$REGION"
export AWS_ENDPOINT_URL="$ENDPOINT"
export AWS_ENDPOINT_URL_S3="${AWS_ENDPOINT_URL_S3:-http://s3.localhost.localstack.cloud:4566}"
export AWS_ENVAR_ALLOWLIST=AWS_REGION,AWS_DEFAULT_REGION
export CDK_DISABLE_VERSION_CHECK=1

say() { printf '\033[1m%s\033[0m\n' "$*"; }

# output NAME: one value from the stack's outputs file (names are checked by infra-cdk's tests).
output() {
  node -e 'const [f, s, k] = process.argv.slice(1); const v = (require(f)[s] || {})[k]; if (v === undefined) process.exit(1); process.stdout.write(String(v));' \
    "$OUTPUTS" "$STACK" "$1"
}

say "waiting for LocalStack at $ENDPOINT"
for i in $(seq 1 60); do
  if curl -fsS "$ENDPOINT/_localstack/health" >/dev/null 2>&1; then break; fi
  if [ "$i" = 60 ]; then echo "LocalStack is not answering at $ENDPOINT; start it with: docker compose -f localstack/docker-compose.yml up -d" >&2; exit 1; fi
  sleep 2
done

if [ ! -f build/lambda/api.zip ] || [ ! -f build/lambda/stream.zip ] || [ ! -f build/lambda/schedule.zip ]; then
  say "building the Lambda zips (make lambdas)"
  make lambdas
fi
if [ ! -f web/dist/index.html ]; then
  say "building the web app"
  npm run build --workspace web
fi
if [ ! -x node_modules/.bin/cdklocal ]; then
  say "installing npm dependencies"
  npm ci
fi

cd infra-cdk
CDKLOCAL="$ROOT/node_modules/.bin/cdklocal"

say "bootstrapping LocalStack (aws://000000000000/$REGION)"
"$CDKLOCAL" bootstrap "aws://000000000000/$REGION" --no-notices

say "deploying $STACK"
"$CDKLOCAL" deploy "$STACK" \
  -c stage="$STAGE" \
  -c mailFrom="${MAIL_FROM:-Oficina <no-reply@oficina.localhost>}" \
  -c serverAdmins="${SERVER_ADMINS:-admin@oficina.localhost}" \
  --require-approval never \
  --no-notices \
  --outputs-file "$OUTPUTS"

TABLE=$(output TableName)
API=$(output ApiEndpoint)
SITE=$(output SiteUrl || true)
BUCKET=$(output SiteBucketName)
QUEUE=$(output StreamFailureQueueUrl)
CONFIG_SET=$(output MailConfigurationSet)

say "deployed $STACK"
cat <<INFO
  table:              $TABLE
  HTTP API:           $API
  site (CloudFront):  ${SITE:-n/a}
  SPA bucket:         $BUCKET
  stream failures:    $QUEUE
  SES config set:     $CONFIG_SET (LocalStack verifies identities by itself)
  sent mail:          $ENDPOINT/_aws/ses
  outputs:            $OUTPUTS
INFO

say "smoke test: GET $API/api/"
if curl -fsS --max-time 30 "$API/api/"; then
  echo
else
  echo "the API did not answer; look at the function logs: awslocal logs tail --follow \$(awslocal logs describe-log-groups --query 'logGroups[].logGroupName' --output text | tr '\t' '\n' | grep -i api)" >&2
  exit 1
fi
