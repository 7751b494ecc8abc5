import Foundation
import StateMachineSupport

// confEcma.xsl declares XSLT 2.0, and 11 of its templates use `xsl:analyze-string` (a regular
// expression over the attribute's value), which XSLT 1.0 processors such as xsltproc do not
// have: the attributes they make (conditions on data-model variables, in 64 tests) come out
// empty. Here they are again in XSLT 1.0, in a stylesheet that imports confEcma.xsl, so that
// they take precedence and its other templates apply unchanged. Each gives what its regular
// expression gives on the values the tests use (`1=0`, `1<2`, `1 2`, `param1 1`); checked
// against the regular expressions on all 97 attributes of the W3C tests.

extension W3CConverter {
    /// The stylesheet that imports `stylesheet` (confEcma.xsl) and restates its XSLT 2.0
    /// templates in XSLT 1.0.
    static func xslt1Overlay(importing stylesheet: URL) -> String {
        """
        <?xml version="1.0"?>
        <xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
            xmlns:conf="http://www.w3.org/2005/scxml-conformance" version="1.0">
        <xsl:import href="\(markupEscaped(stylesheet.absoluteString))"/>
        <xsl:template match="//@conf:idVal"><xsl:attribute name="cond"><xsl:call-template name="w3c-compare"><xsl:with-param name="equals" select="'=='"/></xsl:call-template></xsl:attribute></xsl:template>
        <xsl:template match="//@conf:varIdVal"><xsl:attribute name="cond"><xsl:call-template name="w3c-compare"><xsl:with-param name="equals" select="'=='"/><xsl:with-param name="prefix" select="'Var'"/></xsl:call-template></xsl:attribute></xsl:template>
        <xsl:template match="//@conf:namelistIdVal"><xsl:attribute name="cond"><xsl:call-template name="w3c-compare"><xsl:with-param name="equals" select="'==='"/></xsl:call-template></xsl:attribute></xsl:template>
        <xsl:template match="//@conf:idQuoteVal"><xsl:attribute name="cond"><xsl:call-template name="w3c-compare"><xsl:with-param name="equals" select="'=='"/><xsl:with-param name="prefix">'</xsl:with-param><xsl:with-param name="suffix">'</xsl:with-param></xsl:call-template></xsl:attribute></xsl:template>
        <xsl:template match="//@conf:idSystemVarVal"><xsl:attribute name="cond"><xsl:call-template name="w3c-compare"><xsl:with-param name="equals" select="'=='"/></xsl:call-template></xsl:attribute></xsl:template>
        <xsl:template match="//@conf:compareIDVal"><xsl:attribute name="cond"><xsl:call-template name="w3c-compare"><xsl:with-param name="equals" select="'='"/><xsl:with-param name="prefix" select="'Var'"/><xsl:with-param name="single" select="true()"/></xsl:call-template></xsl:attribute></xsl:template>
        <xsl:template match="//@conf:eventvarVal"><xsl:attribute name="cond"><xsl:call-template name="w3c-compare"><xsl:with-param name="equals" select="'=='"/><xsl:with-param name="variable" select="'event'"/></xsl:call-template></xsl:attribute></xsl:template>
        <xsl:template match="//@conf:VarEqVar"><xsl:attribute name="cond"><xsl:call-template name="w3c-pair"><xsl:with-param name="between" select="'===Var'"/></xsl:call-template></xsl:attribute></xsl:template>
        <xsl:template match="//@conf:VarEqVarStruct"><xsl:attribute name="cond"><xsl:call-template name="w3c-pair"><xsl:with-param name="between" select="'==Var'"/></xsl:call-template></xsl:attribute></xsl:template>
        <xsl:template match="//@conf:varPrefix"><xsl:attribute name="cond"><xsl:variable name="words" select="normalize-space(.)"/><xsl:text>(function(str, starts){if (starts === '') return true;if (str == null || starts == null) return false;str = String(str); starts = String(starts);return str.length &gt;= starts.length &amp;&amp; str.slice(0, starts.length) === starts;})(</xsl:text>Var<xsl:value-of select="substring-after($words, ' ')"/>, Var<xsl:value-of select="substring-before($words, ' ')"/><xsl:text>)</xsl:text></xsl:attribute></xsl:template>
        <xsl:template match="//@conf:eventIdParamHasValue"><xsl:attribute name="cond"><xsl:variable name="words" select="normalize-space(.)"/>_event.raw.search(/Var<xsl:value-of select="substring-before($words, ' ')"/>=<xsl:value-of select="substring-after($words, ' ')"/>/) !== -1</xsl:attribute></xsl:template>
        <xsl:template match="//@conf:eventNamedParamHasValue"><xsl:attribute name="cond"><xsl:variable name="words" select="normalize-space(.)"/>_event.raw.search('<xsl:value-of select="substring-before($words, ' ')"/>=<xsl:value-of select="substring-after($words, ' ')"/>') !== -1</xsl:attribute></xsl:template>

        <!-- "1=2", "1<=x": the variable number, the operator ('=' written as $equals) and the value
             (after $prefix, before $suffix; with $single, only its first character), as
             "([0-9]+)([=<>]=?)(.*)" splits them; $variable 'event' reads _event.data['VarN']. -->
        <xsl:template name="w3c-compare">
        <xsl:param name="equals"/><xsl:param name="prefix" select="''"/><xsl:param name="suffix" select="''"/><xsl:param name="single" select="false()"/><xsl:param name="variable" select="'var'"/>
        <xsl:variable name="id" select="substring-before(., substring(translate(., '0123456789', ''), 1, 1))"/>
        <xsl:variable name="rest" select="substring(., string-length($id) + 1)"/>
        <xsl:variable name="operator"><xsl:choose><xsl:when test="substring($rest, 2, 1) = '='"><xsl:value-of select="substring($rest, 1, 2)"/></xsl:when><xsl:otherwise><xsl:value-of select="substring($rest, 1, 1)"/></xsl:otherwise></xsl:choose></xsl:variable>
        <xsl:variable name="value" select="substring($rest, string-length($operator) + 1)"/>
        <xsl:choose><xsl:when test="$variable = 'event'">_event.data['Var<xsl:value-of select="$id"/>']</xsl:when><xsl:otherwise>Var<xsl:value-of select="$id"/></xsl:otherwise></xsl:choose>
        <xsl:choose><xsl:when test="$operator = '='"><xsl:value-of select="$equals"/></xsl:when><xsl:otherwise><xsl:value-of select="$operator"/></xsl:otherwise></xsl:choose>
        <xsl:value-of select="$prefix"/><xsl:choose><xsl:when test="$single"><xsl:value-of select="substring($value, 1, 1)"/></xsl:when><xsl:otherwise><xsl:value-of select="$value"/></xsl:otherwise></xsl:choose><xsl:value-of select="$suffix"/>
        </xsl:template>

        <!-- "1 2": VarN, $between, then the second number, as "([0-9]+)(\\W+)([0-9]+)" splits it. -->
        <xsl:template name="w3c-pair">
        <xsl:param name="between"/>
        <xsl:variable name="first" select="substring-before(., substring(translate(., '0123456789', ''), 1, 1))"/>
        <xsl:variable name="rest" select="substring(., string-length($first) + 1)"/>
        <xsl:text>Var</xsl:text><xsl:value-of select="$first"/><xsl:value-of select="$between"/><xsl:value-of select="translate($rest, translate($rest, '0123456789', ''), '')"/>
        </xsl:template>
        </xsl:stylesheet>
        """
    }
}
