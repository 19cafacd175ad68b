"""reference.content, ported from apimachinery/pkg/api/validate/content kube_test.go (TestIsLabelKey,
TestIsLabelValue) and dns_test.go (TestIsDNS1123Subdomain), v0.37.1. The exact messages are pinned
by the args and node affinity tests that render them."""

import pytest

from reference.content import dns1123_subdomain_errors, label_key_errors, label_value_errors

LABEL_KEYS_OK = [
    "simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple", "now-with-dashes/simple",
    "now-with-dashes/now-with-dashes", "now.with.dots/simple", "now-with.dashes-and.dots/simple", "1-num.2-num/3-num",
    "1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123", "requests.storage-foo",
    "a" * 63, "a" * 253 + "/" + "b" * 63,
]
LABEL_KEYS_BAD = [
    "nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash", "Example.com/abc",
    "example_com/abc", "example.com/", "/simple", "a" * 64, "a" * 254 + "/abc",
]
LABEL_VALUES_OK = ["simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", "a" * 63, ""]
LABEL_VALUES_BAD = [
    "nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun", "\\backslashes\\are\\bad", "-starts-with-dash",
    "ends-with-dash-", ".starts.with.dot", "ends.with.dot.", "a" * 64,
]
SUBDOMAINS_OK = [
    "a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2",
    "a.a", "ab.a", "abc.a", "a1.a", "a-1.a", "a--1--2--b.a", "a.1", "ab.1", "abc.1", "a1.1", "a-1.1", "a--1--2--b.1",
    "0.a", "01.a", "012.a", "1a.a", "1-a.a", "1--a--b--2", "0.1", "01.1", "012.1", "1a.1", "1-a.1", "1--a--b--2.1",
    "a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5", "11.22.33.44.55", "a" * 253,
]
SUBDOMAINS_BAD = [
    "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a", "a_b", "1_", "_1", "1_2",
    ".", "a.", ".a", "a..b", "1.", ".1", "1..2", " ", "a ", " a", "a b", "1 ", " 1", "1 2", "A.a", "aB.a", "ab.A",
    "A1.a", "a1.A", "A.1", "aB.1", "A1.1", "1A.1", "0.A", "01.A", "012.A", "1A.a", "1a.A", "A.B.C.D.E",
    "AA.BB.CC.DD.EE", "a.B.c.d.e", "aa.bB.cc.dd.ee", "a@b", "a,b", "a_b", "a;b", "a:b", "a%b", "a?b", "a$b", "a" * 254,
]


@pytest.mark.parametrize("check,value,ok", [
    *[(label_key_errors, v, True) for v in LABEL_KEYS_OK],
    *[(label_key_errors, v, False) for v in LABEL_KEYS_BAD],
    *[(label_value_errors, v, True) for v in LABEL_VALUES_OK],
    *[(label_value_errors, v, False) for v in LABEL_VALUES_BAD],
    *[(dns1123_subdomain_errors, v, True) for v in SUBDOMAINS_OK],
    *[(dns1123_subdomain_errors, v, False) for v in SUBDOMAINS_BAD],
], ids=lambda x: x.__name__ if callable(x) else (x[:40] if isinstance(x, str) else None))
def test_content_checks(check, value, ok):
    assert (check(value) == []) is ok


def test_prefix_errors_name_the_part():
    assert label_key_errors("a" * 254 + "/abc") == ["prefix part must be no more than 253 bytes"]
    assert label_key_errors("/simple") == ["prefix part must be non-empty"]
