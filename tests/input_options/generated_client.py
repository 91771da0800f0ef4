"""Converts a document with the client openapi-python-client generated from /openapi.json,
imported as generated: `generated_client.py PACKAGE_DIR BASE_URL KEY IN.docx PASSWORD OUT.pdf`.
Prints the status, Content-Disposition and error code as JSON; writes the PDF on success."""

import importlib
import io
import json
import os
import sys

package_dir, base_url, key, source, password, target = sys.argv[1:7]
sys.path.insert(0, os.path.dirname(package_dir))
name = os.path.basename(package_dir)
client_module = importlib.import_module(name)
convert = importlib.import_module(f"{name}.api.convert.convert")
models = importlib.import_module(f"{name}.models")
types = importlib.import_module(f"{name}.types")

client = client_module.AuthenticatedClient(base_url=base_url, token=key, timeout=120)
with open(source, "rb") as f:
    payload = f.read()
form = models.ConvertForm(
    file=types.File(payload=io.BytesIO(payload), file_name=os.path.basename(source)),
    password=password,
)
response = convert.sync_detailed(client=client, body=form)
answer = {"status": response.status_code, "disposition": response.headers.get("content-disposition")}
if response.status_code == 200:
    with open(target, "wb") as f:
        f.write(response.content)
else:
    answer["code"] = json.loads(response.content)["code"]
print(json.dumps(answer))
