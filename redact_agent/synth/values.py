"""Seeded PII values for every schema type, and the labels printed beside them.

`Values(seed)` wraps one Faker (en_US) and one `random.Random`, both seeded from the page, so a
page's values depend only on its seed. Each type has a few surface forms (an SSN with dashes, a
VIN, "Last, First" names) so systems meet the variety real documents have.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from datetime import date, timedelta

from faker import Faker

LABELS: dict[str, list[str]] = {
    "PERSON_NAME": ["Name:", "Contact:", "Attn:", "Prepared by:", "Customer:", "Employee:"],
    "POSTAL_ADDRESS": ["Address:", "Ship to:", "Mailing address:"],
    "EMAIL_ADDRESS": ["E-mail:", "Email:"],
    "PHONE_NUMBER": ["Phone:", "Tel.", "Fax:", "Mobile:"],
    "GOVERNMENT_ID": ["SSN:", "Passport No.", "Driver's Lic.", "Tax ID:"],
    "FINANCIAL_ACCOUNT": ["Account No.", "IBAN:", "Card:", "Bank acct:"],
    "CUSTOMER_ID": ["Customer ID:", "Client No.", "Member #", "Acct #"],
    "EMPLOYEE_ID": ["Employee ID:", "Staff No.", "Badge #"],
    "POLICY_NUMBER": ["Policy No.", "Certificate #"],
    "CASE_NUMBER": ["Case No.", "Claim #", "Ticket:", "Reference:"],
    "CONTRACT_NUMBER": ["Contract No.", "PO #", "Order No.", "Estimate #"],
    "INVOICE_NUMBER": ["Invoice No.", "Invoice #", "Receipt #", "Statement:"],
    "ONLINE_ID": ["Web:", "User:", "IP:", "Device:"],
    "VEHICLE_ID": ["Plate:", "VIN:"],
    "DATE_OF_BIRTH": ["Date of birth:", "DOB:", "Born:"],
    "DATE": ["Date:", "Due:", "Issued:", "Period from:"],
    "LOCATION": ["City:", "Location:", "Market:"],
    "ORGANIZATION": ["Company:", "Agency:", "Advertiser:", "Bill to:"],
    "BUSINESS_ID": ["EIN:", "VAT No.", "FCC ID:", "Licence:"],
    "JOB_TITLE": ["Title:", "Position:", "Role:"],
    "INSTITUTION_CODE": ["Station:", "Dept code:", "Office:"],
}

# the day dates are drawn around, fixed: Faker's relative dates ("-6y") count from the day a page
# is drawn, so a page drawn the next day was another page (the OCR detection model is calibrated
# on pages drawn with this day as today, benchmarks/build_ocr_models.py)
TODAY = date(2026, 12, 3)
_DATE_FORMATS = ["%m/%d/%Y", "%m/%d/%y", "%B %d, %Y", "%d %b %Y", "%Y-%m-%d"]


class Values:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.fake = Faker("en_US")
        self.fake.seed_instance(seed)

    def make(self, pii_type: str) -> str | list[str]:
        """One value of a type: a string, or the lines of a block (an address)."""
        maker: Callable[[], str | list[str]] = getattr(self, pii_type.lower())
        return maker()

    def label(self, pii_type: str) -> str:
        return self.rng.choice(LABELS[pii_type])

    def _digits(self, n: int) -> str:
        return "".join(self.rng.choice(string.digits) for _ in range(n))

    def _code(self, prefixes: list[str], n: int) -> str:
        return f"{self.rng.choice(prefixes)}{self._digits(n)}"

    def person_name(self) -> str:
        f, r = self.fake, self.rng.random()
        if r < 0.15:
            return f"{f.last_name()}, {f.first_name()}"
        if r < 0.3:
            return f"{f.first_name()} {string.ascii_uppercase[self.rng.randrange(26)]}. {f.last_name()}"
        return f"{f.first_name()} {f.last_name()}"

    def postal_address(self) -> list[str]:
        f = self.fake
        street = f"P.O. Box {self._digits(4)}" if self.rng.random() < 0.15 else f.street_address()
        return [street, f"{f.city()}, {f.state_abbr()} {f.zipcode()}"]

    def email_address(self) -> str:
        return self.fake.company_email() if self.rng.random() < 0.5 else self.fake.free_email()

    def phone_number(self) -> str:
        a, b, c = self._digits(3), self._digits(3), self._digits(4)
        a = str(self.rng.randint(2, 9)) + a[1:]
        form = self.rng.choice(["({a}) {b}-{c}", "{a}-{b}-{c}", "{a}.{b}.{c}", "+1 {a} {b} {c}"])
        ext = f" ext. {self._digits(3)}" if self.rng.random() < 0.1 else ""
        return form.format(a=a, b=b, c=c) + ext

    def variant(self, pii_type: str, value: str) -> tuple[str, str]:
        """Another printed form of a person's name ("BROWN, FRAN", "F. Brown", "Ms. Brown" whose
        honorific is no part of the value) or a phone number (its digits in another format);
        other values are printed again as they are. Returns the form and the words before it."""
        if pii_type == "PERSON_NAME":
            parts = value.split()
            last, first = (p.strip() for p in value.split(",", 1)) if "," in value else (parts[-1], parts[0])
            forms = [(f"{last.upper()}, {first.upper()}", ""), (f"{first[0]}. {last}", ""), (last, "")]
            forms.append((last, self.rng.choice(["Mr.", "Ms.", "Dr."])))
            return self.rng.choice(forms)
        if pii_type == "PHONE_NUMBER":
            digits = "".join(c for c in value.split(" ext.")[0] if c.isdigit())[-10:]
            a, b, c = digits[:3], digits[3:6], digits[6:]
            formats = ("({a}) {b}-{c}", "{a}-{b}-{c}", "{a}.{b}.{c}", "+1 {a} {b} {c}")
            phones = [f.format(a=a, b=b, c=c) for f in formats]
            return self.rng.choice([f for f in phones if f != value] or phones), ""
        return value, ""

    def government_id(self) -> str:
        r = self.rng.random()
        if r < 0.6:
            return self.fake.ssn()
        if r < 0.8:
            return f"{self.rng.choice(string.ascii_uppercase)}{self._digits(8)}"
        return f"{self.rng.choice(string.ascii_uppercase)}{self._digits(3)}-{self._digits(4)}-{self._digits(4)}"

    def financial_account(self) -> str:
        r = self.rng.random()
        if r < 0.35:
            return self.fake.iban()
        if r < 0.65:
            return self.fake.credit_card_number()
        return self._digits(self.rng.randint(9, 12))

    def customer_id(self) -> str:
        return self._code(["CUST-", "C", "CL-", "M"], self.rng.randint(5, 7))

    def employee_id(self) -> str:
        return self._code(["EMP-", "E", "S-"], self.rng.randint(4, 6))

    def policy_number(self) -> str:
        return f"{self.rng.choice(['POL', 'PL', 'HX'])}-{self._digits(2)}-{self._digits(6)}"

    def case_number(self) -> str:
        return f"{self.rng.choice(['CLM', 'CASE', 'TKT', 'REF'])}-{self.rng.randint(2015, 2026)}-{self._digits(5)}"

    def contract_number(self) -> str:
        return self._code(["PO-", "CT-", "ORD-", "EST-"], self.rng.randint(5, 7))

    def invoice_number(self) -> str:
        return self._code(["INV-", "R-", "#", "ST-"], self.rng.randint(5, 7))

    def online_id(self) -> str:
        f, r = self.fake, self.rng.random()
        if r < 0.4:
            return f.url().rstrip("/")
        if r < 0.6:
            return f.ipv4()
        if r < 0.8:
            return f.user_name()
        return f.mac_address()

    def vehicle_id(self) -> str:
        return self.fake.vin() if self.rng.random() < 0.5 else self.fake.license_plate()

    def _day(self, start_years: int, end_years: int) -> date:
        """A day between so many years before or after `TODAY` (Faker's year of 365.24 days)."""
        start, end = (TODAY + timedelta(days=365.24 * years) for years in (start_years, end_years))
        return self.fake.date_between(start_date=start, end_date=end)

    def _date(self, start_years: int, end_years: int) -> str:
        return self._day(start_years, end_years).strftime(self.rng.choice(_DATE_FORMATS))

    def date_of_birth(self) -> str:
        return self._date(-80, -18)

    def date(self) -> str:
        return self._date(-6, 1)

    def short_date(self) -> str:
        return self._day(-6, 1).strftime(self.rng.choice(["%m/%d/%Y", "%m/%d/%y", "%Y-%m-%d"]))

    def location(self) -> str:
        f, r = self.fake, self.rng.random()
        if r < 0.6:
            return f"{f.city()}, {f.state_abbr()}"
        if r < 0.8:
            return f.city()
        return f"{f.state()} {f.zipcode()}"

    def organization(self) -> str:
        return self.fake.company()

    def business_id(self) -> str:
        r = self.rng.random()
        if r < 0.5:
            return self.fake.ein()
        if r < 0.75:
            return f"GB{self._digits(9)}"
        return f"FCC {self._digits(6)}"

    def job_title(self) -> str:
        return self.fake.job()

    def institution_code(self) -> str:
        if self.rng.random() < 0.5:
            letters = "".join(self.rng.choice(string.ascii_uppercase) for _ in range(3))
            return self.rng.choice("KW") + letters + self.rng.choice(["", "-TV", "-FM"])
        return f"{self.rng.choice(['DEPT', 'OFC', 'BR'])}-{self._digits(3)}"
