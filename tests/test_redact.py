"""``mask_secrets``, the one function every printed or stored URL goes through: the user-info
of any URL and the value of every credential-looking parameter, whatever its case or prefix."""

from __future__ import annotations

import pytest

from ragmeter.calls.redact import mask_data, mask_secrets, secret_param

# every name a provider, a proxy or a signed URL uses for a credential (and a few spellings)
SECRET_NAMES = [
    "pass", "pw", "pwd", "password", "passwd", "passphrase", "secret", "token", "access_token",
    "refresh_token", "id_token", "api_key", "apikey", "api-key", "key", "auth", "authorization",
    "signature", "sig", "credential", "credentials", "client_secret", "x-api-key", "X-API-KEY",
    "Pass", "PW", "PassWord", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token",
    "X-Goog-Signature", "sessionid", "session_token", "jwt", "cookie", "subscription-key",
    "Ocp-Apim-Subscription-Key", "private_key", "api%5Fkey",
]
PLAIN_NAMES = ["api-version", "model", "format", "timeout", "version", "sslmode", "region", "n", "q"]


@pytest.mark.parametrize("name", SECRET_NAMES)
def test_every_credential_looking_parameter_is_masked(name):
    assert secret_param(name)
    url = f"http://host:8000/v1?{name}=S3CRET&api-version=2024"
    assert mask_secrets(url) == f"http://host:8000/v1?{name}=***&api-version=2024"
    # after &, after ;, in a fragment (an OAuth implicit grant), as the only parameter
    assert mask_secrets(f"http://h/v1?a=1&{name}=S3CRET") == f"http://h/v1?a=1&{name}=***"
    assert mask_secrets(f"http://h/v1;{name}=S3CRET") == f"http://h/v1;{name}=***"
    assert mask_secrets(f"http://h/cb#{name}=S3CRET&state=x") == f"http://h/cb#{name}=***&state=x"


@pytest.mark.parametrize("name", PLAIN_NAMES)
def test_other_parameters_stay_readable(name):
    assert not secret_param(name)
    assert mask_secrets(f"http://h/v1?{name}=abc") == f"http://h/v1?{name}=abc"


@pytest.mark.parametrize(
    ("url", "masked"),
    [
        ("postgresql+psycopg://alice:hunter2@db/r", "postgresql+psycopg://***@db/r"),
        ("postgresql://alice:hunter2@db:5432/r?sslmode=require", "postgresql://***@db:5432/r?sslmode=require"),
        ("sqlite://alice:PW@/x.db", "sqlite://***@/x.db"),
        ("mysql+pymysql://bob:p:w@h/x", "mysql+pymysql://***@h/x"),
        ("https://ghp_TOKENONLY@host/v1", "https://***@host/v1"),
        ("http://:pw@host/v1", "http://***@host/v1"),
        # what urlsplit does: the user-info ends at the authority's last @
        ("http://bob:p@ss@host/v1", "http://***@host/v1"),
        # unencoded / ? # in a password (SQLAlchemy reads the password up to the @)
        ("postgresql://alice:pa/ss#w?x@db/r", "postgresql://***@db/r"),
        ("redis://:pa/ss@cache:6379/0", "redis://***@cache:6379/0"),
    ],
)
def test_the_user_info_of_any_url_is_masked(url, masked):
    assert mask_secrets(url) == masked
    assert mask_secrets(f"error: cannot open {url}: refused") == f"error: cannot open {masked}: refused"


def test_a_port_or_an_at_sign_after_the_authority_is_not_user_info():
    for url in ("http://127.0.0.1:8000/v1?email=a@b.c", "http://host/v1/models/x@v2", "sqlite:////tmp/x.db"):
        assert mask_secrets(url) == url


def test_a_judge_spec_keeps_model_and_host():
    spec = "openai:gpt-4o@https://bob:hunter2@llm.internal/v1?pass=P1&pw=P2&X-Api-Key=K&api-version=1"
    assert mask_secrets(spec) == "openai:gpt-4o@https://***@llm.internal/v1?pass=***&pw=***&X-Api-Key=***&api-version=1"


def test_bare_keys_and_key_value_pairs_outside_urls():
    assert mask_secrets("key sk-abcdefghijklmnopqrstuv and hf_ABCDEFGHIJKLMNOPQRSTUVWX") == "key *** and ***"
    assert mask_secrets("Authorization: Bearer abcdefghijklmnop") == "Authorization: ***"
    # a libpq-style connection string
    assert mask_secrets("host=db user=alice password=hunter2 dbname=r") == "host=db user=alice password=*** dbname=r"
    assert mask_secrets("no secrets here: 3 < 4, a=b") == "no secrets here: 3 < 4, a=b"


def test_mask_data_masks_every_string_of_a_json_like_value():
    value = {"judge": "openai:m@http://h/v1?pw=X", "n": 3, "list": ["http://a:b@h/", None], "t": ("sk-" + "a" * 20,)}
    assert mask_data(value) == {"judge": "openai:m@http://h/v1?pw=***", "n": 3, "list": ["http://***@h/", None],
                                "t": ["***"]}


def test_masking_is_idempotent():
    text = "openai:m@http://a:b@h/v1?pass=x&sig=y"
    assert mask_secrets(mask_secrets(text)) == mask_secrets(text)


def test_a_url_inside_a_readable_value_is_masked_too():
    assert mask_secrets("url=http://h/v1?key=K1") == "url=http://h/v1?key=***"
    assert mask_secrets("http://h/login?next=http://h/cb?token=T1&x=1") == "http://h/login?next=http://h/cb?token=***&x=1"


def test_a_path_that_looks_like_a_parameter_stays():
    assert mask_secrets("data/key=1/rows.jsonl") == "data/key=1/rows.jsonl"
